import ArgumentParser
import ObjectModel

/// The options that name a model.
struct ModelOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A model: an Xcode .xcdatamodeld bundle, a single .xcdatamodel folder, or a YAML/JSON model file.",
            valueName: "path"))
    var model: String

    @Option(name: .long, parsing: .upToNextOption, help: Self.orderHelp)
    var order: [String] = []

    /// The help of `--order`, which `check` shares.
    static let orderHelp = ArgumentHelp(
        "The order of the model's versions, oldest first (default: the file's order, or for Xcode bundles the "
            + "numbers in the version names).",
        valueName: "version")

    func load(currentVersion: String? = nil) throws -> ModelHistory {
        try ModelLoader.load(path: model, currentVersion: currentVersion, order: order.isEmpty ? nil : order)
    }
}
