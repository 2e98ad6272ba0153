import Foundation

func runDBusPeer(_ arguments: [String]) async throws -> Int32 {
    FileHandle.standardError.write(Data("role not built yet\n".utf8))
    return 2
}
