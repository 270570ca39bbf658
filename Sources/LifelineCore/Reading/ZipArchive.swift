import CLibzip
import Foundation

/// A zip archive (an `.ipa`) read through libzip: its members' names and sizes, and one member's
/// bytes up to a limit.
///
/// libzip bounds every read by the member's compressed size and checks its CRC, so a corrupt or
/// cut deflate stream is an error, never a loop (ZIPFoundation's Linux inflate loop spun forever on
/// one: `../shared/corpus/hostile/manifest-hang.ipa`).
struct ZipArchive: ~Copyable {
    /// A member of the archive.
    struct Member: Equatable {
        var index: UInt64
        var path: String
        /// The size the archive declares for the member's bytes.
        var size: UInt64
        var isDirectory: Bool
        var isSymbolicLink: Bool
        var isFile: Bool { !isDirectory && !isSymbolicLink }
    }

    /// What went wrong, in libzip's words.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let path: String
    private let handle: OpaquePointer

    init(path: String) throws {
        self.path = path
        var code: Int32 = 0
        guard let h = zip_open(path, ZIP_RDONLY, &code) else {
            var error = zip_error_t()
            zip_error_init_with_code(&error, code)
            defer { zip_error_fini(&error) }
            throw Failure(description: String(cString: zip_error_strerror(&error)))
        }
        handle = h
    }

    deinit { zip_discard(handle) }

    /// Every member, in the archive's order.
    var members: [Member] {
        let count = zip_get_num_entries(handle, 0)
        guard count > 0 else { return [] }
        var out: [Member] = []
        out.reserveCapacity(Int(min(count, 1 << 16)))
        for i in 0..<UInt64(count) {
            guard let name = zip_get_name(handle, i, zip_flags_t(ZIP_FL_ENC_GUESS)) else { continue }
            var stat = zip_stat_t()
            zip_stat_init(&stat)
            guard zip_stat_index(handle, i, 0, &stat) == 0 else { continue }
            let path = String(cString: name)
            var opsys: UInt8 = 0
            var attributes: UInt32 = 0
            var link = false
            if zip_file_get_external_attributes(handle, i, 0, &opsys, &attributes) == 0, opsys == UInt8(ZIP_OPSYS_UNIX) {
                link = (attributes >> 16) & UInt32(S_IFMT) == UInt32(S_IFLNK)
            }
            let sized = stat.valid & UInt64(ZIP_STAT_SIZE) != 0
            out.append(Member(index: i, path: path, size: sized ? stat.size : 0,
                              isDirectory: path.hasSuffix("/"), isSymbolicLink: link))
        }
        return out
    }

    /// The member's bytes, read in bounded steps; throws `Failure` when the data is corrupt or cut
    /// (libzip checks the CRC at the end) and `LimitExceeded` past `limit` bytes, whatever size the
    /// archive declares.
    func read(_ member: Member, limit: Int) throws -> [UInt8] {
        guard let file = zip_fopen_index(handle, member.index, 0) else {
            throw Failure(description: String(cString: zip_strerror(handle)))
        }
        defer { zip_fclose(file) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { zip_fread(file, $0.baseAddress, UInt64($0.count)) }
            if n < 0 { throw Failure(description: String(cString: zip_file_strerror(file))) }
            if n == 0 { return out }
            out += chunk[..<Int(n)]
            if out.count > limit { throw LimitExceeded(limit: limit) }
        }
    }

    /// A member larger than the reader's limit.
    struct LimitExceeded: Error { var limit: Int }
}
