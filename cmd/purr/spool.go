package main

import (
	"bytes"
	"io"
	"os"
)

// spoolMemory is how much of its bytes a spool keeps in memory; the rest
// goes to a temporary file.
const spoolMemory = 1 << 20

// spool holds the bytes written to it, the first spoolMemory in memory,
// the others in a temporary file, so that a test's output (--json of
// every execution of a large test) costs a worker and the parent a
// bounded amount of memory, however long it is. Close removes the file.
type spool struct {
	mem  bytes.Buffer
	file *os.File
	n    int
}

func (s *spool) Write(p []byte) (int, error) {
	s.n += len(p)
	if s.file == nil && s.mem.Len()+len(p) <= spoolMemory {
		return s.mem.Write(p)
	}
	if s.file == nil {
		f, err := os.CreateTemp("", "purr-spool-")
		if err != nil {
			return 0, err
		}
		os.Remove(f.Name()) // gone with its last descriptor
		s.file = f
	}
	return s.file.Write(p)
}

// Len is the number of bytes written.
func (s *spool) Len() int { return s.n }

// WriteTo writes the bytes held to w, in the order written.
func (s *spool) WriteTo(w io.Writer) (int64, error) {
	n, err := w.Write(s.mem.Bytes())
	total := int64(n)
	if err != nil || s.file == nil {
		return total, err
	}
	if _, err := s.file.Seek(0, io.SeekStart); err != nil {
		return total, err
	}
	m, err := io.Copy(w, s.file)
	return total + m, err
}

// Reset empties the spool for reuse, closing its file.
func (s *spool) Reset() {
	s.Close()
	s.mem.Reset()
	s.n = 0
}

// Close closes (and so removes) the temporary file, if any.
func (s *spool) Close() {
	if s.file != nil {
		s.file.Close()
		s.file = nil
	}
}
