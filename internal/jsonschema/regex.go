//go:build !js

package jsonschema

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ecmaSpace is the ECMA-262 WhiteSpace and LineTerminator set matched by \s.
const ecmaSpace = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// ecmaProps maps the long Unicode General_Category names of ECMA-262 to
// the short names RE2 knows, as ",Long=Short" entries (a string rather
// than a map keeps the WebAssembly binary smaller).
const ecmaProps = ",Letter=L,Cased_Letter=L,Uppercase_Letter=Lu,Lowercase_Letter=Ll,Titlecase_Letter=Lt" +
	",Modifier_Letter=Lm,Other_Letter=Lo,Mark=M,Nonspacing_Mark=Mn,Spacing_Mark=Mc,Enclosing_Mark=Me" +
	",Number=N,Decimal_Number=Nd,digit=Nd,Letter_Number=Nl,Other_Number=No,Punctuation=P,punct=P" +
	",Symbol=S,Math_Symbol=Sm,Currency_Symbol=Sc,Separator=Z,Space_Separator=Zs,Line_Separator=Zl" +
	",Paragraph_Separator=Zp,Other=C,Control=Cc,Format=Cf,Private_Use=Co,Surrogate=Cs,Unassigned=Cn,"

// compileECMA compiles an ECMA-262 regular expression, translated on a
// best-effort basis to RE2 syntax. Matching is unanchored, as in ECMA-262.
// (Under GOOS=js, regex_js.go uses the JavaScript engine's own RegExp.)
func compileECMA(src string) (matcher, error) {
	t, err := translateECMA(src)
	if err != nil {
		return nil, err
	}
	re, err := regexp.Compile(t)
	if err != nil {
		return nil, err
	}
	return re.MatchString, nil
}

func translateECMA(p string) (string, error) {
	var b strings.Builder
	b.Grow(len(p) + 8)
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\':
			if i+1 >= len(p) {
				return "", errUnsupportedRegexp
			}
			i++
			n, err := translateEscape(&b, p, i, inClass)
			if err != nil {
				return "", err
			}
			i += n
		case inClass:
			switch c {
			case ']':
				inClass = false
				b.WriteByte(c)
			case '[':
				b.WriteString(`\[`)
			default:
				b.WriteByte(c)
			}
		case c == '[':
			switch {
			case strings.HasPrefix(p[i:], "[^]"): // any character
				b.WriteString(`[\x{0}-\x{10FFFF}]`)
				i += 2
			case strings.HasPrefix(p[i:], "[]"): // no character
				b.WriteString(`[^\x{0}-\x{10FFFF}]`)
				i++
			default:
				inClass = true
				b.WriteByte('[')
				if i+1 < len(p) && p[i+1] == '^' {
					b.WriteByte('^')
					i++
				}
			}
		case c == '{':
			// A quantifier's counts in RE2's form: RE2 reads {n} with a
			// leading zero ({007}, {0000}) as the literal text, ECMA-262 as
			// the count. Any other '{' is a literal in both.
			if q, n := quantifierCounts(p[i:]); n > 0 {
				b.WriteString(q)
				i += n - 1
			} else {
				b.WriteByte(c)
			}
		case c == '.':
			b.WriteString(`[^\n\r\x{2028}\x{2029}]`)
		case c == '(':
			if strings.HasPrefix(p[i:], "(?=") || strings.HasPrefix(p[i:], "(?!") ||
				strings.HasPrefix(p[i:], "(?<=") || strings.HasPrefix(p[i:], "(?<!") {
				return "", errUnsupportedRegexp
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// quantifierCounts reads the {n}, {n,} or {n,m} quantifier at the start of
// p and returns it with its counts' leading zeros dropped, and its length
// in p; n is 0 when p starts with no quantifier.
func quantifierCounts(p string) (q string, n int) {
	digits := func(i int) int {
		j := i
		for j < len(p) && '0' <= p[j] && p[j] <= '9' {
			j++
		}
		return j
	}
	trim := func(d string) string {
		for len(d) > 1 && d[0] == '0' {
			d = d[1:]
		}
		return d
	}
	end := digits(1)
	if end == 1 || end >= len(p) {
		return "", 0
	}
	lo := trim(p[1:end])
	switch p[end] {
	case '}':
		return "{" + lo + "}", end + 1
	case ',':
		end2 := digits(end + 1)
		if end2 >= len(p) || p[end2] != '}' {
			return "", 0
		}
		hi := trim(p[end+1 : end2]) // "" for {n,}
		return "{" + lo + "," + hi + "}", end2 + 1
	}
	return "", 0
}

// translateEscape writes the RE2 form of the escape whose letter is p[i]
// and returns how many extra bytes it consumed after p[i].
func translateEscape(b *strings.Builder, p string, i int, inClass bool) (int, error) {
	e := p[i]
	switch e {
	case 's':
		if inClass {
			b.WriteString(ecmaSpace)
		} else {
			b.WriteString("[" + ecmaSpace + "]")
		}
	case 'S':
		if inClass {
			b.WriteString(`\S`)
		} else {
			b.WriteString("[^" + ecmaSpace + "]")
		}
	case 'b':
		if inClass {
			b.WriteString(`\x08`) // backspace inside a class
		} else {
			b.WriteString(`\b`)
		}
	case 'd', 'D', 'w', 'W', 'B', 't', 'n', 'r', 'f', 'v':
		b.WriteByte('\\')
		b.WriteByte(e)
	case 'p', 'P':
		if i+1 < len(p) && p[i+1] == '{' {
			end := strings.IndexByte(p[i:], '}')
			if end < 0 {
				return 0, errUnsupportedRegexp
			}
			name := p[i+2 : i+end]
			if k, v, ok := strings.Cut(name, "="); ok {
				if k != "Script" && k != "sc" && k != "General_Category" && k != "gc" && k != "Script_Extensions" && k != "scx" {
					return 0, errUnsupportedRegexp
				}
				name = v
			}
			if i := strings.Index(ecmaProps, ","+name+"="); i >= 0 {
				rest := ecmaProps[i+len(name)+2:]
				name = rest[:strings.IndexByte(rest, ',')]
			}
			b.WriteByte('\\')
			b.WriteByte(e)
			b.WriteString("{" + name + "}")
			return end, nil
		}
		b.WriteByte('\\')
		b.WriteByte(e)
	case 'u':
		r, n := hexRune(p, i+1)
		if n == 0 {
			b.WriteByte('u') // identity escape
			return 0, nil
		}
		if r >= 0xD800 && r < 0xDC00 && strings.HasPrefix(p[i+1+n:], `\u`) {
			if lo, n2 := hexRune(p, i+1+n+2); n2 == 4 && lo >= 0xDC00 && lo < 0xE000 {
				r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
				n += 2 + n2
			}
		}
		writeRune(b, r)
		return n, nil
	case 'x':
		if i+2 < len(p) && unhex(p[i+1]) >= 0 && unhex(p[i+2]) >= 0 {
			writeRune(b, rune(unhex(p[i+1])<<4|unhex(p[i+2])))
			return 2, nil
		}
		b.WriteByte('x')
	case 'c':
		if i+1 < len(p) && ('a' <= p[i+1] && p[i+1] <= 'z' || 'A' <= p[i+1] && p[i+1] <= 'Z') {
			writeRune(b, rune(p[i+1]%32))
			return 1, nil
		}
		b.WriteString(`\\c`)
	case '0':
		if i+1 < len(p) && '0' <= p[i+1] && p[i+1] <= '9' {
			return 0, errUnsupportedRegexp // legacy octal escape
		}
		b.WriteString(`\x{0}`)
	case '1', '2', '3', '4', '5', '6', '7', '8', '9', 'k':
		return 0, errUnsupportedRegexp // back-references
	default:
		switch {
		case e >= utf8.RuneSelf:
			_, n := utf8.DecodeRuneInString(p[i:])
			b.WriteString(p[i : i+n])
			return n - 1, nil
		case 'a' <= e && e <= 'z' || 'A' <= e && e <= 'Z':
			b.WriteByte(e) // identity escape of a letter
		default:
			b.WriteByte('\\') // escaped punctuation, including \/ and \-
			b.WriteByte(e)
		}
	}
	return 0, nil
}

func writeRune(b *strings.Builder, r rune) {
	b.WriteString(`\x{`)
	b.WriteString(strconv.FormatInt(int64(r), 16))
	b.WriteByte('}')
}

// unicodeProperty is the predicate of \p{name} for compileLinear, from
// Go's Unicode tables: General_Category values (short or long names,
// optionally as gc=…/General_Category=…) and scripts (sc=…, Script=…,
// scx=… approximated by Script, or a bare script name).
func unicodeProperty(name string) (func(rune) bool, error) {
	key, val, keyed := strings.Cut(name, "=")
	if !keyed {
		val = name
	}
	if i := strings.Index(ecmaProps, ","+val+"="); i >= 0 {
		rest := ecmaProps[i+len(val)+2:]
		val = rest[:strings.IndexByte(rest, ',')]
	}
	var t *unicode.RangeTable
	switch key {
	case "General_Category", "gc":
		t = unicode.Categories[val]
	case "Script", "sc", "Script_Extensions", "scx":
		t = unicode.Scripts[val]
	default:
		if !keyed {
			if t = unicode.Categories[val]; t == nil {
				t = unicode.Scripts[val]
			}
		}
	}
	if t == nil {
		return nil, errUnsupportedRegexp
	}
	return func(r rune) bool { return unicode.Is(t, r) }, nil
}
