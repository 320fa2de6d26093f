extension CommandInfo {
    /// The role whose convention the command follows: the one the manifest declares, else the one its
    /// title names (Cut, Copy, Paste: `CommandRole.inferred(fromTitle:)`). A command declared with
    /// another role keeps that one whatever its title.
    public var conventionalRole: CommandRole? { role ?? CommandRole.inferred(fromTitle: title) }
}
