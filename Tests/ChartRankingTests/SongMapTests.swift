import ChartRanking
import Testing

struct SongMapTests {
  @Test func keepsTheLastValueOfEachSongAsItGrows() {
    var map = SongMap<Int>()
    for song in 1...1_000 { map[SongID(Int64(song * 7))] = song }
    for song in stride(from: 1, through: 1_000, by: 3) { map[SongID(Int64(song * 7))] = -song }
    #expect(map.count == 1_000)
    #expect(map[SongID(7)] == -1)
    #expect(map[SongID(14)] == 2)
    #expect(map[SongID(7_000)] == -1_000)
    #expect(map[SongID(8)] == nil)
    map.removeAll()
    #expect(map.count == 0)
    #expect(map[SongID(14)] == nil)
    var set = SongLinking.SongSet(capacity: 2)
    for song in [5, 9, 5, 300, 9] { set.insert(SongID(Int64(song))) }
    #expect(set.count == 3)
    #expect(set.contains(SongID(300)) && !set.contains(SongID(4)))
  }
}
