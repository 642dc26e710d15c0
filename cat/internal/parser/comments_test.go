package parser

import "testing"

func TestBlankComments(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a (* b *) c", "a         c"},
		{"a (* b (* c *) d *) e", "a                   e"},
		{"a (* b *) c *) d", "a         c *) d"},
		{"a (* b\nc *) d", "a \n     d"},
		{"a (* \u00e9\u00e9 *) d", "a          d"},
		{"(* x\ny\nz *)\nlet", "\n\n    \nlet"},
		{`"(*" x`, `"(*" x`},
		{"// (* x\ny", "// (* x\ny"},
		{"# (* x\ny", "# (* x\ny"},
		{"(*)*) x", "      x"},
	}
	for _, tc := range tests {
		got, err := blankComments("f", tc.src)
		if err != nil || got != tc.want {
			t.Errorf("%q: got %q, %v; want %q", tc.src, got, err, tc.want)
		}
	}
	if _, err := blankComments("f", "a\n  (* b (* c *) d"); err == nil || err.Error() != "f:2:3: unterminated comment: '(*' without '*)'" {
		t.Errorf("unterminated: %v", err)
	}
}
