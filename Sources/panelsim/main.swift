import Foundation
import PanelSimCLI

#if canImport(Glibc)
    import Glibc

    // glibc gives the top of its heap back to the system as soon as 128 KiB of it are free, and serves
    // blocks from 128 KiB up with mmap of their own. A run replays trace after trace, each building a
    // record list of that order and freeing it: with the defaults every replay maps fresh pages and
    // faults them in again (a 6,100-frame LNPopup replay, repeated in one process, spent a third of
    // its time in the kernel's page faults). Keeping up to 256 MiB of free heap (M_TRIM_THRESHOLD, −1
    // in <malloc.h>) and serving blocks below 32 MiB (M_MMAP_THRESHOLD, −3: glibc's largest on 64-bit)
    // from the heap lets the next replay reuse the pages. Peak memory is unchanged; freed memory stays
    // with the process until it exits. `mallopt` is looked up by name: Swift's Glibc module does not
    // export <malloc.h>.
    if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
        let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        _ = mallopt(-1, 256 << 20)
        _ = mallopt(-3, 32 << 20)
    }
#endif

exit(PanelSimCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
