package replayview

// Diff is diff, for tests.
var Diff = diff
