// Package rison reads Rison (https://github.com/Nanonid/rison), the URL-friendly JSON that
// GitBook's API takes visitor claims in (getSitePublishingPreviewById's claims): (a:1,b:'x y')
// is {"a":1,"b":"x y"}, !(1,2) an array, !t !f !n true, false and null, and 'it!'s' a string
// with ! escaping ' and !.
package rison

import (
	"fmt"
	"strconv"
	"strings"
)

// notIDChars are the characters an unquoted string (an id) cannot hold.
const notIDChars = " '!:(),*@$"

// Parse reads one Rison value: map[string]any, []any, string, float64, bool or nil.
func Parse(s string) (any, error) {
	p := &parser{s: s}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	if p.i != len(p.s) {
		return nil, p.errorf("unexpected %q after the value", p.s[p.i:])
	}
	return v, nil
}

type parser struct {
	s string
	i int
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("rison: at %d: %s", p.i, fmt.Sprintf(format, args...))
}

func (p *parser) value() (any, error) {
	if p.i >= len(p.s) {
		return nil, p.errorf("a value is missing")
	}
	switch c := p.s[p.i]; {
	case c == '(':
		return p.object()
	case c == '!':
		if p.i+1 >= len(p.s) {
			return nil, p.errorf("! ends the text")
		}
		p.i += 2
		switch p.s[p.i-1] {
		case 't':
			return true, nil
		case 'f':
			return false, nil
		case 'n':
			return nil, nil
		case '(':
			return p.array()
		}
		return nil, p.errorf("unknown !%c", p.s[p.i-1])
	case c == '\'':
		return p.quoted()
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	return p.id()
}

func (p *parser) object() (any, error) {
	p.i++ // (
	out := map[string]any{}
	for first := true; ; first = false {
		if p.i < len(p.s) && p.s[p.i] == ')' {
			p.i++
			return out, nil
		}
		if !first {
			if p.i >= len(p.s) || p.s[p.i] != ',' {
				return nil, p.errorf("expected , or ) in an object")
			}
			p.i++
		}
		var key any
		var err error
		if p.i < len(p.s) && p.s[p.i] == '\'' {
			key, err = p.quoted()
		} else {
			key, err = p.id()
		}
		if err != nil {
			return nil, err
		}
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.errorf("expected : after a key")
		}
		p.i++
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		out[key.(string)] = v
	}
}

func (p *parser) array() (any, error) {
	out := []any{}
	for first := true; ; first = false {
		if p.i < len(p.s) && p.s[p.i] == ')' {
			p.i++
			return out, nil
		}
		if !first {
			if p.i >= len(p.s) || p.s[p.i] != ',' {
				return nil, p.errorf("expected , or ) in an array")
			}
			p.i++
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
}

func (p *parser) quoted() (any, error) {
	p.i++ // '
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		p.i++
		switch c {
		case '\'':
			return b.String(), nil
		case '!':
			if p.i >= len(p.s) || (p.s[p.i] != '!' && p.s[p.i] != '\'') {
				return nil, p.errorf("! must escape ! or ' in a string")
			}
			b.WriteByte(p.s[p.i])
			p.i++
		default:
			b.WriteByte(c)
		}
	}
	return nil, p.errorf("a string is not closed")
}

func (p *parser) number() (any, error) {
	start := p.i
	for p.i < len(p.s) && strings.IndexByte("-+.e0123456789", p.s[p.i]) >= 0 {
		p.i++
	}
	f, err := strconv.ParseFloat(p.s[start:p.i], 64)
	if err != nil {
		return nil, p.errorf("%q is not a number", p.s[start:p.i])
	}
	return f, nil
}

func (p *parser) id() (any, error) {
	start := p.i
	for p.i < len(p.s) && strings.IndexByte(notIDChars, p.s[p.i]) < 0 {
		p.i++
	}
	if p.i == start {
		return nil, p.errorf("a value is missing")
	}
	return p.s[start:p.i], nil
}
