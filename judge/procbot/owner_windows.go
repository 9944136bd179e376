package procbot

import "os"

// ownedByUs is false on Windows, whose files have no owner's uid to
// compare: no file of the temporary directory is trusted for the bots.
func ownedByUs(os.FileInfo) bool { return false }
