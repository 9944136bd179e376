package replayview

// Script is the viewer's script, for other pages that draw games with it
// (judge play --web): loaded after a replay data block of one frame, it
// draws that frame, and window.viewer.put draws other cells and marks in
// its place.
func Script() []byte { return []byte(script) }
