import FerryTestSupport
import Foundation
import Testing
@testable import FerryFiles

/// The unnamed temporary file (parked links): made and unlinked in one step as far as an
/// interruption can tell, so that Ctrl-C can never leave its name in the temp folder.
@Suite struct UnnamedFileTests {
    let directory = TemporaryDirectory("ferry-unnamed-file")

    @Test func itIsUsableAndLeavesNoName() throws {
        let descriptor = ScratchFiles.unnamedFile(in: directory.url.path, prefix: "ferry-links-")
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        let bytes: [UInt8] = [7, 8, 9]
        #expect(bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, 3, 0) } == 3)
        var back = [UInt8](repeating: 0, count: 3)
        #expect(back.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 3, 0) } == 3)
        #expect(back == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }

    @Test func aMissingFolderGivesMinusOneAndItsReason() {
        let descriptor = ScratchFiles.unnamedFile(in: directory.url.path + "/missing", prefix: "ferry-links-")
        let reason = errno
        #expect(descriptor == -1)
        #expect(reason == ENOENT)
    }

    /// The interruption takes the scratch registry's lock for good before it removes anything;
    /// a file made while that lock is held elsewhere must wait for it, so no signal can come
    /// between the file getting its name and losing it.
    @Test func itWaitsWhileTheInterruptionsLockIsHeld() throws {
        let order = LockedState<[String]>([])
        let held = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            ScratchFiles.registry.withLock { _ in
                held.signal()
                Thread.sleep(forTimeInterval: 0.3)
                order.withLock { $0.append("lock released") }
            }
            done.signal()
        }
        held.wait()
        let descriptor = ScratchFiles.unnamedFile(in: directory.url.path, prefix: "ferry-links-")
        order.withLock { $0.append("file made") }
        done.wait()
        #expect(descriptor >= 0)
        close(descriptor)
        #expect(order.withLock { $0 } == ["lock released", "file made"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }
}
