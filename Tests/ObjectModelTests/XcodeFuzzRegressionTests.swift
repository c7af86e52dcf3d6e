import Foundation
import ObjectModel
import TestFixtures
import Testing

/// Inputs that crashed the Xcode model reader under libFuzzer (`scripts/fuzz xcode-model`): errors now.
@Suite("Xcode model reader regressions")
struct XcodeFuzzRegressionTests {
    /// An attribute name holding bytes that are not UTF-8: Foundation's XMLParser trapped on it.
    @Test func nameThatIsNotUTF8IsRefused() throws {
        try withTemporaryFolder { folder in
            let bundle = folder.appendingPathComponent("Fuzz.xcdatamodel")
            try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
            let contents =
                Data(#"<?xml version="1.0" encoding="UTF-8"?><model systemVersion"#.utf8)
                + Data([0xFF, 0xFF]) + Data(#"="1"><entity name="A"/></model>"#.utf8)
            try contents.write(to: bundle.appendingPathComponent("contents"))
            let error = #expect(throws: ModelError.self) { try ModelLoader.load(path: bundle.path) }
            #expect(error?.message.contains("not UTF-8") == true, "\(error.map { "\($0)" } ?? "")")
            #expect(error?.file?.hasSuffix("contents") == true)
        }
    }
}
