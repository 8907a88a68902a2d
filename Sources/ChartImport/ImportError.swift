public import ChartStorage

/// Why an import stored nothing.
public enum ImportError: Error, Sendable {
  /// Sources were refused (every one of them, with ``ImportOptions/skippingInvalid``): each with
  /// its problems. Nothing was stored.
  case refused([RefusedSource], sourceCount: Int)
  /// The archive could not be opened, read or written; nothing was stored.
  case archive(ArchiveError)
  /// Writing to the archive failed, and indexes or triggers that are not ChartArchive's are on
  /// its tables (see ``UserSchemaObject``): one of them may be why. Nothing was stored.
  case writeFailedWithUserObjects(ArchiveError, [UserSchemaObject])
}
