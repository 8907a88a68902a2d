import CLibXML2
import Foundation

/// The tables of an HTML document, each as rows of cell texts, read with libxml2's HTML parser
/// (Debian's libxml2: <https://gnome.pages.gitlab.gnome.org/libxml2/devhelp/libxml2-HTMLparser.html>),
/// which reads what browsers read: unclosed cells and rows, missing `<tbody>`, entities.
///
/// A cell's text is the text of everything in it, its runs of white space (space, tab, line
/// breaks) made one space and trimmed, as a browser shows it; a row is the `<td>` and `<th>`
/// cells of one `<tr>`; rows with no cells are left out. A table inside a cell is a table of its
/// own, not part of its outer table's cells.
struct HTMLTable {
  /// The rows, in document order, each with its cells' texts.
  var rows: [[String]]
  /// The 1-based line of the document on which each row's `<tr>` starts.
  var lines: [Int]

  /// The tables of an HTML document, in document order.
  ///
  /// - Parameter data: the document, UTF-8 (the caller checks that it is).
  /// - Returns: every table, or `nil` when libxml2 makes no document of it.
  static func tables(in data: Data) -> [HTMLTable]? {
    _ = parserReady
    guard data.count < Int(Int32.max) else { return nil }
    let options =
      HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue
    let document = data.withUnsafeBytes { bytes in
      htmlReadMemory(
        bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil, "UTF-8",
        Int32(options))
    }
    guard let document else { return nil }
    defer { xmlFreeDoc(document) }
    var tables: [HTMLTable] = []
    collectTables(under: xmlDocGetRootElement(document), into: &tables)
    return tables
  }

  /// libxml2's global state, set up once before the first parse (`xmlInitParser` is not safe to
  /// run on two threads at once).
  private static let parserReady: Void = xmlInitParser()

  /// Whether a node is the element `name` (lowercase; libxml2's HTML parser lowercases names).
  private static func isElement(_ node: UnsafeMutablePointer<xmlNode>, _ name: String) -> Bool {
    guard node.pointee.type == XML_ELEMENT_NODE, let tag = node.pointee.name else { return false }
    return strcmp(UnsafeRawPointer(tag).assumingMemoryBound(to: CChar.self), name) == 0
  }

  /// The children of a node, in order.
  private static func children(of node: UnsafeMutablePointer<xmlNode>)
    -> [UnsafeMutablePointer<xmlNode>]
  {
    var children: [UnsafeMutablePointer<xmlNode>] = []
    var child = node.pointee.children
    while let current = child {
      children.append(current)
      child = current.pointee.next
    }
    return children
  }

  /// Adds the tables at or under `node` to `tables`, outer ones before those in their cells.
  private static func collectTables(
    under node: UnsafeMutablePointer<xmlNode>?, into tables: inout [HTMLTable]
  ) {
    guard let node else { return }
    if isElement(node, "table") {
      var table = HTMLTable(rows: [], lines: [])
      table.read(rowsUnder: node)
      tables.append(table)
    }
    for child in children(of: node) { collectTables(under: child, into: &tables) }
  }

  /// Reads the rows of a table: its `<tr>`s, directly or in `<thead>`, `<tbody>` and `<tfoot>`,
  /// but not those of a table inside it.
  private mutating func read(rowsUnder node: UnsafeMutablePointer<xmlNode>) {
    for child in Self.children(of: node) where child.pointee.type == XML_ELEMENT_NODE {
      if Self.isElement(child, "tr") {
        let cells = Self.children(of: child).filter {
          Self.isElement($0, "td") || Self.isElement($0, "th")
        }
        guard !cells.isEmpty else { continue }
        rows.append(cells.map(Self.text))
        lines.append(xmlGetLineNo(child))
      } else if !Self.isElement(child, "table") {
        read(rowsUnder: child)
      }
    }
  }

  /// The text of a cell: its text nodes' content, white space collapsed as a browser shows it.
  private static func text(of cell: UnsafeMutablePointer<xmlNode>) -> String {
    var bytes: [UInt8] = []
    func gather(_ node: UnsafeMutablePointer<xmlNode>) {
      switch node.pointee.type {
      case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
        if let content = node.pointee.content {
          var byte = content
          while byte.pointee != 0 {
            bytes.append(byte.pointee)
            byte += 1
          }
        }
      case XML_ELEMENT_NODE:
        // A table in a cell is read as a table of its own; scripts and styles show nothing.
        guard !isElement(node, "table"), !isElement(node, "script"), !isElement(node, "style")
        else { return }
        for child in children(of: node) { gather(child) }
      default: break
      }
    }
    gather(cell)
    // ASCII white space (HTML's), each run one space, none at either end.
    var collapsed: [UInt8] = []
    var pendingSpace = false
    for byte in bytes {
      if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C {
        pendingSpace = true
      } else {
        if pendingSpace, !collapsed.isEmpty { collapsed.append(0x20) }
        pendingSpace = false
        collapsed.append(byte)
      }
    }
    return String(decoding: collapsed, as: UTF8.self)
  }
}
