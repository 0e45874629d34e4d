@_spi(Backends) import DocStore
import Testing

/// The scheduling both backends' live observers share: one fetch at a time,
/// one more when a commit came during it, nothing after the end.
struct FetchScheduleTests {
    @Test func aCommitDuringAFetchAsksForExactlyOneMore() {
        var schedule = FetchSchedule()
        let first = schedule.request()
        #expect(first, "the first commit starts a fetch")
        schedule.beginFetch()
        let during = schedule.request()
        let duringAgain = schedule.request()
        #expect(!during, "a fetch is running: the caller doesn't start another")
        #expect(!duringAgain, "two commits during one fetch still ask for one more")
        let again = schedule.endFetch()
        #expect(again, "a commit came during the fetch: fetch again")
        schedule.beginFetch()
        let more = schedule.endFetch()
        #expect(!more, "nothing came during the second fetch: the round ends")
        #expect(!schedule.isFetching)
        let next = schedule.request()
        #expect(next, "the next commit starts a new round")
    }

    @Test func nothingAfterTheEnd() {
        var schedule = FetchSchedule()
        _ = schedule.request()
        schedule.beginFetch()
        _ = schedule.request()
        let wasOver = schedule.finish()
        let wasOverAgain = schedule.finish()
        #expect(!wasOver, "the first finish ends it")
        #expect(wasOverAgain, "a second finish says it had ended")
        let again = schedule.endFetch()
        #expect(!again, "no more fetches once finished, even with a commit pending")
        let afterEnd = schedule.request()
        #expect(!afterEnd)
        #expect(schedule.isFinished)
    }
}
