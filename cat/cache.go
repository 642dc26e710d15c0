package cat

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/binary"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/purr-mcm/purr/cat/ast"
	"github.com/purr-mcm/purr/cat/internal/astcode"
	"github.com/purr-mcm/purr/cat/internal/parser"
	"github.com/purr-mcm/purr/source"
)

// PreparedFile is the file, beside an embedded file system's Cat files,
// that holds them parsed (go generate writes it with WritePrepared).
const PreparedFile = "prepared.bin"

// CacheEnv names the environment variable that moves the cache directory
// (PURR_CACHE=DIR) or turns it off (PURR_CACHE=off).
const CacheEnv = "PURR_CACHE"

// A Cache gives the syntax tree of a file's contents without parsing it
// again: from the PreparedFile of an embedded file system, or from a file in
// Dir that an earlier run wrote. Entries are found by a hash of the
// contents and of the parser's own sources (parserSources), so a stale entry
// is never found; an entry is read only when its checksum holds, so a
// corrupted one is parsed again and rewritten. Files are written whole and
// renamed into place: runs that fill the cache at once are safe. A nil
// *Cache parses every file.
type Cache struct {
	Prepared []fs.FS // embedded file systems that may carry a PreparedFile
	Dir      string  // "" for no cache directory

	once   sync.Once
	tables []map[[sha256.Size]byte][]byte // the PreparedFile of each of Prepared
}

// UserCache is the cache of a run: the prepared files of prepared, and
// purr's folder in the user's cache directory unless PURR_CACHE says
// otherwise.
func UserCache(prepared ...fs.FS) *Cache {
	c := &Cache{Prepared: prepared}
	switch dir := os.Getenv(CacheEnv); dir {
	case "off":
	case "":
		if base, err := os.UserCacheDir(); err == nil {
			c.Dir = filepath.Join(base, "purr", "cat")
		}
	default:
		c.Dir = dir
	}
	return c
}

// Parse is the package's Parse, answered from the cache when it can be.
func (c *Cache) Parse(name string, src []byte) (*ast.File, error) {
	f, errs := c.parse(name, src)
	if errs != nil {
		errs.Sort()
		return nil, errs.Err()
	}
	return f, nil
}

func (c *Cache) parse(name string, src []byte) (*ast.File, source.ErrorList) {
	if c == nil {
		return parser.Parse(name, src)
	}
	key := contentKey(src)
	c.once.Do(func() {
		for _, fsys := range c.Prepared {
			c.tables = append(c.tables, prepared(fsys))
		}
	})
	for _, t := range c.tables {
		if data, ok := t[key]; ok {
			if f, err := astcode.Decode(data, name); err == nil {
				return f, nil
			}
		}
	}
	if c.Dir != "" {
		if f := readEntry(c.Dir, key, name); f != nil {
			return f, nil
		}
	}
	f, errs := parser.Parse(name, src)
	if errs == nil && c.Dir != "" {
		writeEntry(c.Dir, key, f)
	}
	return f, errs
}

// parserSources are the files that decide the tree a text parses to; an
// entry is keyed by their hash too, so that a changed parser never reads
// what an older one wrote. TestParserSources keeps the list whole.
//
//go:embed Cat.g4 ast/ast.go internal/parser/convert.go internal/parser/comments.go internal/astcode/astcode.go
var parserSources embed.FS

// parserHash is the hash of parserSources.
var parserHash = sync.OnceValue(func() []byte {
	h := sha256.New()
	fs.WalkDir(parserSources, ".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := parserSources.ReadFile(path)
			h.Write([]byte(path))
			binary.Write(h, binary.LittleEndian, uint64(len(data)))
			h.Write(data)
		}
		return nil
	})
	return h.Sum(nil)
})

// contentKey is the key of a file's contents.
func contentKey(src []byte) [sha256.Size]byte {
	h := sha256.New()
	h.Write(parserHash())
	h.Write(src)
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

// The prepared file: preparedMagic, then per file its key, its length as
// a uvarint and its encoding.
const preparedMagic = "purr prepared Cat files 1\n"

// prepared reads fsys's PreparedFile; a missing or malformed one is an
// empty table.
func prepared(fsys fs.FS) map[[sha256.Size]byte][]byte {
	t := map[[sha256.Size]byte][]byte{}
	data, err := fs.ReadFile(fsys, PreparedFile)
	if err == nil && bytes.HasPrefix(data, []byte(preparedMagic)) {
		data = data[len(preparedMagic):]
		for len(data) > sha256.Size {
			var k [sha256.Size]byte
			copy(k[:], data)
			n, w := binary.Uvarint(data[sha256.Size:])
			data = data[sha256.Size+max(w, 0):]
			if w <= 0 || n > uint64(len(data)) {
				t = map[[sha256.Size]byte][]byte{}
				break
			}
			t[k] = data[:n]
			data = data[n:]
		}
	}
	return t
}

// WritePrepared returns the PreparedFile for the Cat files of fsys (every
// *.cat and *.bell at its root).
func WritePrepared(fsys fs.FS) ([]byte, error) {
	out := []byte(preparedMagic)
	for _, pattern := range []string{"*.cat", "*.bell"} {
		names, _ := fs.Glob(fsys, pattern)
		for _, name := range names {
			src, err := fs.ReadFile(fsys, name)
			if err != nil {
				return nil, err
			}
			f, err := Parse(name, src)
			if err != nil {
				return nil, err
			}
			data, err := astcode.Encode(f)
			if err != nil {
				return nil, err
			}
			k := contentKey(src)
			out = append(out, k[:]...)
			out = binary.AppendUvarint(out, uint64(len(data)))
			out = append(out, data...)
		}
	}
	return out, nil
}

// A cache directory entry: entryMagic, the key, the hash of the encoding,
// the encoding.
const entryMagic = "purr parsed Cat file 1\n"

func entryPath(dir string, key [sha256.Size]byte) string {
	return filepath.Join(dir, fmt.Sprintf("%x", key))
}

// readEntry returns the tree of an entry that holds, or nil.
func readEntry(dir string, key [sha256.Size]byte, name string) *ast.File {
	data, err := os.ReadFile(entryPath(dir, key))
	head := len(entryMagic) + 2*sha256.Size
	if err != nil || len(data) < head || string(data[:len(entryMagic)]) != entryMagic ||
		!bytes.Equal(data[len(entryMagic):len(entryMagic)+sha256.Size], key[:]) {
		return nil
	}
	body := data[head:]
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], data[head-sha256.Size:head]) {
		return nil
	}
	f, err := astcode.Decode(body, name)
	if err != nil {
		return nil
	}
	return f
}

// writeEntry stores f's encoding under key; a cache that cannot be written
// is no cache, never an error.
func writeEntry(dir string, key [sha256.Size]byte, f *ast.File) {
	body, err := astcode.Encode(f)
	if err != nil || os.MkdirAll(dir, 0o755) != nil {
		return
	}
	sum := sha256.Sum256(body)
	tmp, err := os.CreateTemp(dir, "tmp-*")
	if err != nil {
		return
	}
	_, err = tmp.Write(slices.Concat([]byte(entryMagic), key[:], sum[:], body))
	if cerr := tmp.Close(); err != nil || cerr != nil || os.Rename(tmp.Name(), entryPath(dir, key)) != nil {
		os.Remove(tmp.Name())
	}
}
