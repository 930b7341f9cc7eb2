//go:build js

package main

// The browser's file pickers. index.html (viewer/web) holds
// <input type="file" id="p2l-open" multiple> and, for a folder,
// <input type="file" id="p2l-open-folder" webkitdirectory>; the files
// chosen in either reach the viewer as one drop (openDropped), so a model
// picked together with its external texture pages finds them beside it,
// and a Cubism bundle's folder keeps its layout (each file's
// webkitRelativePath). A page without these elements has no picker; drops
// on the canvas work regardless (ebiten.DroppedFiles).

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall/js"
	"testing/fstest"
)

// maxPickedBytes bounds one picked file, maxPickedTotal all the files of
// one choice: they are read whole into memory.
const (
	maxPickedBytes = 256 << 20
	maxPickedTotal = 512 << 20
)

type pick struct {
	files fs.FS
	err   error
}

var picks = make(chan pick, 1)

func init() {
	for _, id := range []string{"p2l-open", "p2l-open-folder"} {
		input := js.Global().Get("document").Call("getElementById", id)
		if !input.Truthy() {
			continue
		}
		input.Call("addEventListener", "change", js.FuncOf(func(js.Value, []js.Value) any {
			files := input.Get("files")
			list := make([]js.Value, files.Length())
			for i := range list {
				list[i] = files.Index(i)
			}
			input.Set("value", "") // choosing the same file again fires change again
			// Reading waits for promises: not on the event handler's goroutine.
			go func() { picks <- readPicked(list) }()
			return nil
		}))
	}
}

// readPicked reads the picked files into memory, each under its path in
// the folder chosen (webkitRelativePath) or, for files chosen one by one,
// its name.
func readPicked(files []js.Value) pick {
	m := fstest.MapFS{}
	total := 0.0
	for _, f := range files {
		name := f.Get("name").String()
		if rel := f.Get("webkitRelativePath"); rel.Truthy() && fs.ValidPath(rel.String()) {
			name = rel.String()
		}
		size := f.Get("size").Float()
		if size > maxPickedBytes {
			return pick{err: fmt.Errorf("%s: %.0f bytes, more than the %d the viewer reads", name, size, maxPickedBytes)}
		}
		if total += size; total > maxPickedTotal {
			return pick{err: fmt.Errorf("the files chosen hold more than the %d bytes the viewer reads at once", maxPickedTotal)}
		}
		buf, err := await(f.Call("arrayBuffer"))
		if err != nil {
			return pick{err: fmt.Errorf("cannot read %s: %w", name, err)}
		}
		data := make([]byte, buf.Get("byteLength").Int())
		js.CopyBytesToGo(data, js.Global().Get("Uint8Array").New(buf))
		m[name] = &fstest.MapFile{Data: data}
	}
	return pick{files: m}
}

// await waits for a JavaScript promise.
func await(promise js.Value) (js.Value, error) {
	done := make(chan struct{})
	var v js.Value
	var err error
	then := js.FuncOf(func(_ js.Value, args []js.Value) any {
		v = args[0]
		close(done)
		return nil
	})
	defer then.Release()
	catch := js.FuncOf(func(_ js.Value, args []js.Value) any {
		err = errors.New(args[0].Call("toString").String())
		close(done)
		return nil
	})
	defer catch.Release()
	promise.Call("then", then, catch)
	<-done
	return v, err
}

// pickedFiles returns the files chosen in the picker since the last call,
// or nil.
func pickedFiles() (fs.FS, error) {
	select {
	case p := <-picks:
		return p.files, p.err
	default:
		return nil, nil
	}
}
