package conversations

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of extraction.
const (
	maxIssuesPerConversation = 5
	maxTitleLen              = 100
	maxSummaryLen            = 400
)

// extracted is an issue before clustering.
type extracted struct {
	title, summary, text string
}

// extractIssues splits a conversation into issues. The user's messages are read in order,
// cut into sentences, and chatter (greetings, thanks, sign-offs, names: sentences without
// content words, or with fewer than three words and no problem cue) is dropped. A sentence that
// opens with a change of subject ("another issue", "separately", "unrelated", "p.s.", …) starts
// a new issue; everything else belongs to the current one. Each issue's title is its most
// problem-like sentence (problem cues weigh twice a content word; the earliest wins ties), its
// summary its sentences in order. A conversation whose messages hold nothing but chatter gets
// one issue from its subject when the subject has content, and none otherwise.
func extractIssues(c Conversation) []extracted {
	var segments [][]string
	cur := []string{}
	for _, p := range c.Parts {
		if p.Type != "message" || p.Role != "user" {
			continue
		}
		for _, s := range sentences(plainText(p.Body)) {
			if rest, ok := hasShiftMarker(s); ok {
				if len(cur) > 0 {
					segments = append(segments, cur)
					cur = []string{}
				}
				s = strings.TrimLeft(rest, " :,;.-–—!")
				if s == "" {
					continue
				}
				s = upperFirst(s)
			}
			if isChatter(s) {
				continue
			}
			cur = append(cur, s)
		}
	}
	if len(cur) > 0 {
		segments = append(segments, cur)
	}
	if len(segments) > maxIssuesPerConversation {
		last := maxIssuesPerConversation - 1
		for _, s := range segments[last+1:] {
			segments[last] = append(segments[last], s...)
		}
		segments = segments[:maxIssuesPerConversation]
	}
	subject := strings.TrimSpace(plainText(c.Subject))
	var out []extracted
	for i, seg := range segments {
		e := extracted{
			title:   upperFirst(truncate(tidyEnd(seg[bestSentence(seg)]), maxTitleLen)),
			summary: truncate(strings.Join(seg, " "), maxSummaryLen),
			text:    strings.Join(seg, "\n"),
		}
		if i == 0 && subject != "" {
			e.text = subject + "\n" + e.text
		}
		out = append(out, e)
	}
	if len(out) == 0 && len(contentWords(tokens(subject))) > 0 {
		out = append(out, extracted{title: truncate(subject, maxTitleLen), summary: truncate(subject, maxSummaryLen), text: subject})
	}
	return out
}

func isChatter(s string) bool {
	toks := tokens(s)
	content := contentWords(toks)
	if len(content) == 0 {
		return true
	}
	if len(toks) < 3 {
		for _, t := range toks {
			if problemCues[t] || isDigits(t) {
				return false
			}
		}
		return true
	}
	return false
}

func bestSentence(seg []string) int {
	best, bestScore := 0, -1
	for i, s := range seg {
		toks := tokens(s)
		score := 0
		for _, t := range toks {
			if problemCues[t] {
				score += 2
			}
		}
		n := len(contentWords(toks))
		if n > 8 {
			n = 8
		}
		score += n
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

// tidyEnd drops a period after another closing mark ("…up!." → "…up!").
func tidyEnd(s string) string {
	for len(s) >= 2 && s[len(s)-1] == '.' && strings.ContainsAny(s[len(s)-2:len(s)-1], "!?") {
		s = s[:len(s)-1]
	}
	return s
}

func isDigits(t string) bool {
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return false
		}
	}
	return t != ""
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// truncate shortens s to at most max bytes, at a word boundary, marking the cut with "…".
func truncate(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= max {
		return s
	}
	cut := s[:max-len("…")]
	for !utf8.ValidString(cut) {
		cut = cut[:len(cut)-1]
	}
	if i := strings.LastIndexByte(cut, ' '); i > max/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}

// issueID is derived from the conversation and the issue's position in it, so re-ingesting a
// conversation gives its issues the same IDs.
func issueID(source, conversation string, index int) string {
	h := sha256.Sum256([]byte(source + "\x00" + conversation + "\x00" + string(rune('0'+index))))
	return "iss_" + hex.EncodeToString(h[:8])
}

// IssueID is the ID of the issue at a position (from 0) of a conversation: what lets a caller
// holding stored issues put a conversation's issues back in order.
func IssueID(source, conversation string, index int) string {
	return issueID(source, conversation, index)
}
