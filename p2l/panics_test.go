package p2l

import "fmt"

// PanicMessage runs f and returns what it panicked with, formatted ("" when
// it returned): the tests of the Rig contract (an index out of range
// panics, file content never does) read it.
func PanicMessage(f func()) (msg string) {
	defer func() {
		if v := recover(); v != nil {
			msg = fmt.Sprint(v)
			if msg == "" {
				msg = "(empty panic)"
			}
		}
	}()
	f()
	return ""
}
