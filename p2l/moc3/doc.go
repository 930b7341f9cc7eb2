// Package moc3 reads Live2D Cubism .moc3 files (the binary model a Cubism
// Editor exports) into plain Go values.
//
// Work in progress: the types are final, the reader is being written.
package moc3
