public import ArgumentParser
public import MappingModel

extension UnboundPolicies: ExpressibleByArgument {}

/// The option that binds the policy classes of Xcode mapping models to registered policies.
struct PolicyOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A binding file: the registered policy each policy class of the Xcode mapping models stands for.",
            valueName: "file"))
    var policies: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "error: a policy class bound to no registered policy stops the migration before it starts; base: it "
                + "runs as the base NSEntityMigrationPolicy (expressions that call it left without a value), with "
                + "a policyNotSimulated warning.",
            valueName: "error|base"))
    var unboundPolicies: UnboundPolicies = .error

    /// The bindings of `--policies`, or none.
    func bindings() throws(MappingError) -> PolicyBindings {
        try policies.map { path throws(MappingError) in try PolicyBindings.load(path: path) } ?? PolicyBindings()
    }
}
