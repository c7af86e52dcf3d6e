import ArgumentParser
import MappingModel

/// The option that binds the policy classes of Xcode mapping models to registered policies.
struct PolicyOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A binding file: the registered policy each policy class of the Xcode mapping models stands for.",
            valueName: "file"))
    var policies: String?

    /// The bindings of `--policies`, or none.
    func bindings() throws(MappingError) -> PolicyBindings {
        try policies.map { path throws(MappingError) in try PolicyBindings.load(path: path) } ?? PolicyBindings()
    }
}
