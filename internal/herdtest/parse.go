package herdtest

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/purr-mcm/purr/mcm/herdout"
)

// Block is one entry of a herd7 output: a result block, or the TIMEOUT or
// ERROR line the corpus scripts write when herd7 gave none.
type Block struct {
	// Path is the test's path from the "# path" line before the block
	// (the corpus files' key), "" when there is none.
	Path string
	// Line is the line number of the block's first line.
	Line    int
	Result  *herdout.Result // nil for TIMEOUT and ERROR
	Timeout bool
	Error   string // the text after "ERROR "
	// Text is the result block as read, one "\n"-terminated line each,
	// without the empty line that ends it.
	Text string
}

// Key returns the path when there is one, else the test name.
func (b *Block) Key() string {
	if b.Path != "" || b.Result == nil {
		return b.Path
	}
	return b.Result.Name
}

// ParseFile parses a herd7 output file; errors carry the file name.
func ParseFile(name string) ([]Block, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	blocks, err := ParseOutput(f)
	if err != nil {
		return blocks, fmt.Errorf("%s:%w", name, err)
	}
	return blocks, nil
}

// ParseOutput parses herd7 output: result blocks, optionally each preceded
// by a "# path" line, as herd7 prints them or as the corpus files
// (herd-7.57*.txt, *.litmus.expected) hold them. Errors are
// "LINE:COL: message" (ParseFile prefixes the file name).
func ParseOutput(r io.Reader) ([]Block, error) {
	p := &parser{sc: bufio.NewScanner(r)}
	p.sc.Buffer(make([]byte, 1<<16), 1<<26)
	var blocks []Block
	path := ""
	for p.next() {
		line := p.line
		switch {
		case line == "":
		case strings.HasPrefix(line, "# "):
			path = strings.TrimSpace(line[2:])
		case strings.TrimSpace(line) == "TIMEOUT":
			blocks = append(blocks, Block{Path: path, Line: p.n, Timeout: true})
			path = ""
		case strings.HasPrefix(line, "ERROR "):
			blocks = append(blocks, Block{Path: path, Line: p.n, Error: line[len("ERROR "):]})
			path = ""
		case strings.HasPrefix(line, "Test "):
			b := Block{Path: path, Line: p.n}
			res, text, err := p.result()
			if err != nil {
				return blocks, err
			}
			b.Result, b.Text = res, text
			blocks = append(blocks, b)
			path = ""
		default:
			return blocks, p.errorf(1, "expected a result block (Test NAME KIND), a \"# path\" line, TIMEOUT or ERROR, found %q", line)
		}
	}
	if err := p.sc.Err(); err != nil {
		return blocks, fmt.Errorf("%d:1: %w", p.n, err)
	}
	return blocks, nil
}

type parser struct {
	sc   *bufio.Scanner
	line string
	n    int
	text strings.Builder
}

func (p *parser) next() bool {
	if !p.sc.Scan() {
		return false
	}
	p.line = strings.TrimSuffix(p.sc.Text(), "\r")
	p.n++
	return true
}

func (p *parser) errorf(col int, format string, args ...any) error {
	return fmt.Errorf("%d:%d: %s", p.n, col, fmt.Sprintf(format, args...))
}

// expect reads the next line of a block, failing with what was expected.
func (p *parser) expect(what string) error {
	if !p.next() {
		return fmt.Errorf("%d:1: unexpected end of output, expected %s", p.n+1, what)
	}
	p.text.WriteString(p.line)
	p.text.WriteByte('\n')
	return nil
}

// result parses a block whose Test line is the current line.
func (p *parser) result() (*herdout.Result, string, error) {
	p.text.Reset()
	p.text.WriteString(p.line)
	p.text.WriteByte('\n')
	r := &herdout.Result{}
	head := strings.TrimPrefix(p.line, "Test ")
	sp := strings.LastIndexByte(head, ' ')
	if sp <= 0 {
		return nil, "", p.errorf(1, "expected \"Test NAME KIND\", found %q", p.line)
	}
	r.Name = head[:sp]
	kind, ok := parseKind(head[sp+1:])
	if !ok {
		return nil, "", p.errorf(len("Test ")+sp+2, "expected Allowed, Forbidden or Required, found %q", head[sp+1:])
	}

	if err := p.expect("States N"); err != nil {
		return nil, "", err
	}
	count, err := p.intAfter("States ")
	if err != nil {
		return nil, "", err
	}
	for range count {
		if err := p.expect("a final state"); err != nil {
			return nil, "", err
		}
		s, err := ParseState(p.line)
		if err != nil {
			return nil, "", p.errorf(1, "%v", err)
		}
		r.States = append(r.States, s)
	}

	if err := p.expect("Ok, No or Undef"); err != nil {
		return nil, "", err
	}
	v := p.line
	if rest, found := strings.CutPrefix(v, "Loop "); found {
		r.Loop, v = true, rest
	}
	switch v {
	case "Ok":
		r.Verdict = herdout.Ok
	case "No":
		r.Verdict = herdout.No
	case "Undef":
		r.Verdict = herdout.Undef
	default:
		return nil, "", p.errorf(1, "expected Ok, No or Undef (after %d states), found %q", count, p.line)
	}
	if err := p.expect("Witnesses"); err != nil {
		return nil, "", err
	}
	if p.line != "Witnesses" {
		return nil, "", p.errorf(1, "expected Witnesses, found %q", p.line)
	}
	if err := p.expect("Positive: P Negative: N"); err != nil {
		return nil, "", err
	}
	if _, err := fmt.Sscanf(p.line, "Positive: %d Negative: %d", &r.Positive, &r.Negative); err != nil ||
		p.line != fmt.Sprintf("Positive: %d Negative: %d", r.Positive, r.Negative) {
		return nil, "", p.errorf(1, "expected \"Positive: P Negative: N\", found %q", p.line)
	}

	if err := p.expect("Flag or Condition"); err != nil {
		return nil, "", err
	}
	for {
		flag, found := strings.CutPrefix(p.line, "Flag ")
		if !found {
			break
		}
		r.Flags = append(r.Flags, flag)
		if err := p.expect("Flag or Condition"); err != nil {
			return nil, "", err
		}
	}
	cond, found := strings.CutPrefix(p.line, "Condition ")
	if !found {
		return nil, "", p.errorf(1, "expected \"Condition ...\", found %q", p.line)
	}
	quant, rest, _ := strings.Cut(cond, " ")
	switch quant {
	case "exists":
		r.Quantifier = herdout.Exists
	case "~exists":
		r.Quantifier = herdout.NotExists
	case "forall":
		r.Quantifier = herdout.Forall
	default:
		return nil, "", p.errorf(len("Condition ")+1, "expected exists, ~exists or forall, found %q", quant)
	}
	r.Condition = rest
	if r.Kind() != kind {
		return nil, "", p.errorf(len("Condition ")+1, "quantifier %s does not match kind %s", quant, kind)
	}

	if err := p.expect("Observation"); err != nil {
		return nil, "", err
	}
	obs, found := strings.CutPrefix(p.line, "Observation "+r.Name+" ")
	if !found {
		return nil, "", p.errorf(1, "expected \"Observation %s ...\", found %q", r.Name, p.line)
	}
	var word string
	var holds, fails int
	if _, err := fmt.Sscanf(obs, "%s %d %d", &word, &holds, &fails); err != nil {
		return nil, "", p.errorf(1, "expected \"Observation NAME KIND P N\", found %q", p.line)
	}
	switch word {
	case "Never":
		r.Observation = herdout.Never
	case "Sometimes":
		r.Observation = herdout.Sometimes
	case "Always":
		r.Observation = herdout.Always
	default:
		return nil, "", p.errorf(1, "expected Never, Sometimes or Always, found %q", word)
	}
	if h, f := r.Counts(); h != holds || f != fails {
		return nil, "", p.errorf(1, "observation counts %d %d do not match the witnesses %d %d for %s",
			holds, fails, r.Positive, r.Negative, r.Quantifier)
	}

	// Optional Time and Hash lines, then an empty line or the end.
	text := p.text.String()
	for p.next() {
		if p.line == "" {
			break
		}
		if t, found := strings.CutPrefix(p.line, "Time "+r.Name+" "); found && !r.HasTime && r.Hash == "" {
			f, err := strconv.ParseFloat(t, 64)
			if err != nil {
				return nil, "", p.errorf(1, "bad time %q", t)
			}
			r.Time, r.HasTime = f, true
		} else if h, found := strings.CutPrefix(p.line, "Hash="); found && r.Hash == "" {
			r.Hash = h
		} else {
			return nil, "", p.errorf(1, "expected Time, Hash or an empty line, found %q", p.line)
		}
		text += p.line + "\n"
	}
	return r, text, nil
}

func (p *parser) intAfter(prefix string) (int, error) {
	s, found := strings.CutPrefix(p.line, prefix)
	if !found {
		return 0, p.errorf(1, "expected %q, found %q", prefix+"N", p.line)
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, p.errorf(len(prefix)+1, "expected a count, found %q", s)
	}
	return n, nil
}

func parseKind(s string) (herdout.Kind, bool) {
	switch s {
	case "Allowed":
		return herdout.Allowed, true
	case "Forbidden":
		return herdout.Forbidden, true
	case "Required":
		return herdout.Required, true
	}
	return 0, false
}

// ParseState parses a final-state line as herd7 prints it.
func ParseState(line string) (herdout.State, error) {
	var s herdout.State
	i := 0
	for i < len(line) {
		if line[i] == ' ' {
			i++
			continue
		}
		rest := line[i:]
		if strings.HasPrefix(rest, "Fault(") || strings.HasPrefix(rest, "~Fault(") {
			end := closingParen(rest)
			if end < 0 || end+1 >= len(rest) || rest[end+1] != ';' {
				return s, fmt.Errorf("col %d: unterminated fault in state %q", i+1, line)
			}
			s.Faults = append(s.Faults, rest[:end+1])
			i += end + 2
			continue
		}
		eq := strings.IndexByte(rest, '=')
		if eq <= 0 {
			return s, fmt.Errorf("col %d: expected loc=value; in state %q", i+1, line)
		}
		end := valueEnd(rest, eq+1)
		if end < 0 {
			return s, fmt.Errorf("col %d: expected ';' after the value of %s in state %q", i+eq+2, rest[:eq], line)
		}
		s.Bindings = append(s.Bindings, herdout.Binding{Loc: rest[:eq], Value: rest[eq+1 : end]})
		i += end + 1
	}
	if s.String() != line {
		return s, fmt.Errorf("state %q is not in herd7's layout (reads back as %q)", line, s.String())
	}
	return s, nil
}

// valueEnd returns the index of the ';' ending the value that starts at
// from, skipping quoted strings and braces.
func valueEnd(s string, from int) int {
	depth, quoted := 0, false
	for i := from; i < len(s); i++ {
		switch c := s[i]; {
		case quoted:
			if c == '"' {
				quoted = false
			}
		case c == '"':
			quoted = true
		case c == '{' || c == '(':
			depth++
		case c == '}' || c == ')':
			depth--
		case c == ';' && depth == 0:
			return i
		}
	}
	return -1
}

func closingParen(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}
