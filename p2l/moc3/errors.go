package moc3

import (
	"strconv"
	"strings"
)

// FormatError reports a .moc3 file that cannot be read: where (section,
// object, field, byte offset) and what is wrong.
type FormatError struct {
	// Section is the table concerned, such as "art mesh" or "header".
	Section string
	// Index is the object's index in its section, −1 when the error is not
	// about one object.
	Index int
	// ID is the object's id when it was already read, else "".
	ID string
	// Field is the field or item concerned, such as "position keyform 3";
	// may be empty.
	Field string
	// Offset is the file offset of the offending bytes, −1 when the error is
	// about a relation between values rather than one place.
	Offset int64
	// Msg says what is wrong.
	Msg string
}

// Error formats the error as
// "moc3: SECTION INDEX (ID): FIELD at offset 0xN: MSG", leaving out what is
// unknown.
func (e *FormatError) Error() string {
	var b strings.Builder
	b.WriteString("moc3: ")
	b.WriteString(e.Section)
	if e.Index >= 0 {
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(e.Index))
	}
	if e.ID != "" {
		b.WriteString(" (")
		b.WriteString(strconv.Quote(e.ID)[1 : len(strconv.Quote(e.ID))-1])
		b.WriteByte(')')
	}
	if e.Field != "" {
		b.WriteString(": ")
		b.WriteString(e.Field)
	}
	if e.Offset >= 0 {
		b.WriteString(" at offset 0x")
		b.WriteString(strconv.FormatInt(e.Offset, 16))
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}
