package moc3

// Parse reads a .moc3 file held in memory. It returns a *FormatError for a
// file it cannot read.
func Parse(data []byte) (*Moc, error) {
	return nil, &FormatError{Section: "header", Index: -1, Offset: -1, Msg: "reader not implemented yet"}
}
