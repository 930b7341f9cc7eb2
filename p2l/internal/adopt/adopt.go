// Package adopt lets the importers under p2l hand package p2l a file they
// built and hold no other reference to, without the copy p2l.NewModel
// makes of the files it is given (a Cubism model's file is megabytes of
// small arrays: the copy cost more than reading the .moc3).
package adopt

import "github.com/psd2live/p2l-ebiten/p2l/p2lrt"

// Model makes a model of f, which is valid (f.Validate returned nil), and
// takes f as its own: the caller must not keep or change f. The result is a *p2l.Model. Package
// p2l sets Model when it is initialised, so an importer that imports p2l
// finds it set.
var Model func(f *p2lrt.File) (any, error)
