package parser

import (
	"fmt"
	"strings"

	"github.com/antlr4-go/antlr/v4"

	"github.com/purr-mcm/purr/source"
)

// syntaxReporter turns ANTLR's error callbacks into one precise message:
// the first error of the file (ANTLR's recovery produces cascades).
type syntaxReporter struct {
	file, src  string
	parseErr   *source.Error
	lexErr     *source.Error
	commentErr *source.Error
	// The token where the decision that failed started: for a
	// NoViableAltException the parser is still there (prediction does not
	// consume), so the expected set it gives is only right when the
	// offending token is that token.
	decisionStart antlr.Token
}

// result is the first error of the file.
func (r *syntaxReporter) result() *source.Error {
	var best *source.Error
	for _, e := range []*source.Error{r.lexErr, r.parseErr, r.commentErr} {
		if e != nil && (best == nil || e.Pos.Before(best.Pos)) {
			best = e
		}
	}
	if best == nil {
		// ANTLR reported nothing in LL mode after SLL failed: cannot happen
		// in practice, but never accept a tree built during recovery.
		best = &source.Error{Pos: source.Pos{File: r.file, Line: 1, Col: 1}, Msg: "syntax error"}
	}
	return best
}

type lexerListener struct {
	antlr.DefaultErrorListener
	rep *syntaxReporter
}

func (l *lexerListener) SyntaxError(_ antlr.Recognizer, _ any, line, column int, _ string, _ antlr.RecognitionException) {
	if l.rep.lexErr != nil {
		return
	}
	pos := source.Pos{File: l.rep.file, Line: line, Col: column + 1}
	c := charAt(l.rep.src, line, column)
	msg := fmt.Sprintf("unexpected character %q", c)
	if c == '"' {
		msg = "unterminated string: '\"' without a closing '\"'"
	}
	l.rep.lexErr = &source.Error{Pos: pos, Msg: msg}
}

// charAt returns the rune at a 1-based line and 0-based rune column.
func charAt(src string, line, column int) rune {
	for l := 1; l < line; l++ {
		i := strings.IndexByte(src, '\n')
		if i < 0 {
			return 0
		}
		src = src[i+1:]
	}
	for i, c := range []rune(src) {
		if i == column {
			return c
		}
	}
	return 0
}

type errorStrategy struct {
	*antlr.DefaultErrorStrategy
	rep *syntaxReporter
}

func (s *errorStrategy) ReportError(p antlr.Parser, e antlr.RecognitionException) {
	if _, ok := e.(*antlr.NoViableAltException); ok {
		s.rep.decisionStart = p.GetCurrentToken()
	}
	s.DefaultErrorStrategy.ReportError(p, e)
}

type parserListener struct {
	antlr.DefaultErrorListener
	rep *syntaxReporter
}

func (l *parserListener) SyntaxError(rec antlr.Recognizer, offending any, line, column int, _ string, e antlr.RecognitionException) {
	if l.rep.parseErr != nil {
		return
	}
	p := rec.(antlr.Parser)
	tok, _ := offending.(antlr.Token)
	pos := source.Pos{File: l.rep.file, Line: line, Col: column + 1}
	msg := "unexpected " + tokenDisplay(tok)
	_, noViable := e.(*antlr.NoViableAltException)
	if !noViable || l.rep.decisionStart == nil || tok == nil || l.rep.decisionStart.GetTokenIndex() == tok.GetTokenIndex() {
		expected := p.GetExpectedTokens()
		if closer, open := unclosed(p.GetParserRuleContext(), expected); open != nil {
			msg += fmt.Sprintf(", expected %s to close %s at %d:%d",
				tokenName(closer), quote(open.GetText()), open.GetLine(), open.GetColumn()+1)
		} else if d := describe(expected); d != "" {
			msg += ", expected " + d
		}
	}
	l.rep.parseErr = &source.Error{Pos: pos, Msg: msg}
}

func quote(s string) string { return "'" + s + "'" }

func tokenDisplay(t antlr.Token) string {
	if t == nil || t.GetTokenType() == antlr.TokenEOF {
		return "end of file"
	}
	if t.GetTokenType() == CatParserSTRING {
		return t.GetText()
	}
	return quote(t.GetText())
}

// tokenName names a token type for "expected ..." lists.
func tokenName(tt int) string {
	switch tt {
	case antlr.TokenEOF:
		return "end of file"
	case CatParserNAME:
		return "a name"
	case CatParserSTRING:
		return "a string"
	case CatParserTAG:
		return "a tag"
	}
	lits := CatParserStaticData.LiteralNames
	if tt > 0 && tt < len(lits) && lits[tt] != "" {
		return lits[tt]
	}
	return fmt.Sprintf("token %d", tt)
}

var closerOf = map[int]int{
	CatParserLPAR:      CatParserRPAR,
	CatParserLBRAC:     CatParserRBRAC,
	CatParserLACC:      CatParserRACC,
	CatParserBEGIN:     CatParserEND,
	CatParserMATCH:     CatParserEND,
	CatParserPROCEDURE: CatParserEND,
	CatParserFORALL:    CatParserEND,
	CatParserIF:        CatParserEND, // instruction-level if only, see below
}

// unclosed finds the innermost bracket or block opened in the rule contexts
// under way whose closing token is expected now.
func unclosed(ctx antlr.ParserRuleContext, expected *antlr.IntervalSet) (int, antlr.Token) {
	for ; ctx != nil; ctx = parentOf(ctx) {
		_, isIfInstr := ctx.(*IfInstrContext)
		var stack []antlr.Token
		for _, ch := range ctx.GetChildren() {
			t, ok := ch.(antlr.TerminalNode)
			if !ok {
				continue
			}
			tok := t.GetSymbol()
			tt := tok.GetTokenType()
			if _, opens := closerOf[tt]; opens && (tt != CatParserIF || isIfInstr) {
				stack = append(stack, tok)
				continue
			}
			if n := len(stack); n > 0 && closerOf[stack[n-1].GetTokenType()] == tt {
				stack = stack[:n-1]
			}
		}
		for i := len(stack) - 1; i >= 0; i-- {
			if c := closerOf[stack[i].GetTokenType()]; setHas(expected, c) {
				return c, stack[i]
			}
		}
	}
	return 0, nil
}

func setHas(set *antlr.IntervalSet, t int) bool {
	if set == nil {
		return false
	}
	for _, iv := range set.GetIntervals() {
		if iv.Contains(t) {
			return true
		}
	}
	return false
}

func parentOf(ctx antlr.ParserRuleContext) antlr.ParserRuleContext {
	p, _ := ctx.GetParent().(antlr.ParserRuleContext)
	return p
}

var (
	instrStarts = tokenSet(CatParserLET, CatParserMATCH, CatParserUNDEFINED_UNLESS,
		CatParserFLAG, CatParserASSERT, CatParserCOMP, CatParserACYCLIC,
		CatParserIRREFLEXIVE, CatParserEMPTY, CatParserSHOW, CatParserUNSHOW,
		CatParserINCLUDE, CatParserPROCEDURE, CatParserCALL, CatParserDEBUG,
		CatParserFORALL, CatParserWITH, CatParserINSTRUCTIONS, CatParserDEFAULT,
		CatParserIF, CatParserENUM)
	exprStarts = tokenSet(CatParserNAME, CatParserZERO, CatParserTAG, CatParserLACC,
		CatParserUNDERSCORE, CatParserLPAR, CatParserBEGIN, CatParserLBRAC,
		CatParserCOMP, CatParserLET, CatParserFUN, CatParserTRY, CatParserIF,
		CatParserMATCH)
	operators = tokenSet(CatParserBAR, CatParserPLUSPLUS, CatParserSEMI,
		CatParserBACKSLASH, CatParserAMP, CatParserSTAR, CatParserPLUS,
		CatParserOPT, CatParserHAT)
)

func tokenSet(ts ...int) map[int]bool {
	m := map[int]bool{}
	for _, t := range ts {
		m[t] = true
	}
	return m
}

// describe names an expected-token set for a human: whole classes
// (instruction, expression, operator) rather than dozens of tokens.
func describe(set *antlr.IntervalSet) string {
	if set == nil {
		return ""
	}
	var toks []int
	for _, iv := range set.GetIntervals() {
		for t := iv.Start; t < iv.Stop; t++ {
			toks = append(toks, t)
		}
	}
	has := map[int]bool{}
	for _, t := range toks {
		has[t] = true
	}
	if has[CatParserLET] && has[CatParserACYCLIC] && has[CatParserINCLUDE] {
		return "an instruction (let, acyclic, show, include, ...)"
	}
	isExpr := has[CatParserNAME] && has[CatParserLPAR] && has[CatParserLACC] && has[CatParserZERO]
	isOp := has[CatParserBAR] && has[CatParserSEMI] && has[CatParserAMP]
	var items []string
	if isExpr {
		items = append(items, "an expression")
	}
	for _, t := range toks {
		if (isExpr && exprStarts[t]) || (isOp && operators[t]) || t == antlr.TokenEpsilon {
			continue
		}
		if isOp && (exprStarts[t] || t == CatParserCOMMA) {
			continue // arguments of an application, tuple commas: too much detail
		}
		items = append(items, tokenName(t))
	}
	if isOp {
		items = append(items, "an operator")
	}
	if len(items) > 6 {
		items = append(items[:5], "...")
	}
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}
