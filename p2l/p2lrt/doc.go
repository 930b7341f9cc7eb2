// Package p2lrt is the PSD2Live .p2lrt file format: the file's records as
// plain Go values (File and its record types), the reader (Decode, Inspect),
// the writer (File.Write, File.Encode), the validation both apply
// (File.Validate) and the error they report (FormatError, naming the chunk,
// the offset and the field).
//
// A File is plain data: build or change one freely, then write it or make a
// playable model of it with p2l.NewModel, which validates and copies it. The
// runtime (evaluation, animation, rigs) is package p2l; p2lrt imports none
// of it, so importers, generators and converters need only this package.
//
//	data, err := p2lrt.ReadFile("hiyori.p2lrt", nil)
//	if err != nil { ... }
//	f, err := p2lrt.Decode(data, nil)
//	if err != nil { ... } // a *FormatError for a bad file
//	f.Meta = append(f.Meta, p2lrt.MetaEntry{Key: "note", Value: "edited"})
//	err = f.Write(w, &p2lrt.WriteOptions{Compression: p2lrt.CompressZstd})
//
// Version 1 and version 2 files decode into the same values; the layout is
// described in docs/FORMAT.md, the bounds a file must keep in
// docs/LIMITS.md.
package p2lrt
