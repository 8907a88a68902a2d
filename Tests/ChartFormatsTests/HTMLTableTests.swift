import Foundation
import Testing

@testable import ChartFormats

/// Tables of HTML documents as libxml2's HTML parser reads them.
struct HTMLTableTests {
  private func tables(_ html: String) throws -> [HTMLTable] {
    try #require(HTMLTable.tables(in: Data(html.utf8)))
  }

  @Test func cellsAreTheirTextWithWhiteSpaceCollapsedAndEntitiesRead() throws {
    let tables = try tables(
      """
      <table><tr><th> Pos </th><th>Artist and Title</th></tr>
      <tr><td>1</td><td><div><a href="a.html">Tomo &amp; The
        Tides</a> - <a href="t.html">Run&nbsp;It <b>Back</b></a></div></td></tr></table>
      """)
    #expect(
      tables.map(\.rows) == [
        [["Pos", "Artist and Title"], ["1", "Tomo & The Tides - Run\u{A0}It Back"]]
      ])
    #expect(tables.map(\.lines) == [[1, 2]])
  }

  @Test func cellsAndRowsLeftOpenAreClosedAsBrowsersCloseThem() throws {
    let tables = try tables(
      "<html><body><table><thead><tr><th>A<th>B<tbody><tr><td>1<td>2<tr><td>3<td>4</table>")
    #expect(tables.map(\.rows) == [[["A", "B"], ["1", "2"], ["3", "4"]]])
  }

  @Test func aTableInACellIsATableOfItsOwn() throws {
    let tables = try tables(
      """
      <table><tr><td>outer<table><tr><td>inner</td></tr></table></td><td>x</td></tr>
      <tr></tr></table>
      """)
    // The empty row is no row; the inner table's text is no part of the outer cell.
    #expect(tables.map(\.rows) == [[["outer", "x"]], [["inner"]]])
  }

  @Test func scriptsAndStylesInACellShowNothing() throws {
    let tables = try tables(
      "<table><tr><td>A<script>var x = 1;</script><style>b{}</style></td></tr></table>")
    #expect(tables.map(\.rows) == [[["A"]]])
  }

  @Test func aDocumentWithoutTablesHasNone() throws {
    #expect(try tables("<p>502 Bad Gateway</p>").isEmpty)
  }
}
