//go:build !js

package main

import "io/fs"

// Only the browser build has a file picker (picker_js.go) and a page to
// publish its state to (state_js.go).

func pickedFiles() (fs.FS, error) { return nil, nil }

func publishState(*game) {}

// openLocation opens the model the command line names (a path here; a URL
// in the browser, location_js.go).
func (g *game) openLocation(name string) error { return g.openFile(name) }
