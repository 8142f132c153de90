// Package conversations turns support conversations into issues and groups the issues into
// clusters, deterministically and without any language model: what quire's conversations API
// (GitBook's "conversations issues clusters") serves. It is pure Go with no I/O; a store
// persists an Analyzer's State and reloads it with Restore.
//
// # Issues
//
// Only the user's messages are read (parts of type "message" and role "user"); Markdown and
// HTML are reduced to plain text. Sentences without content words — greetings, thanks,
// sign-offs, names — are dropped, as are sentences under three words without a problem cue
// ("can't", "error", "broken", "slow", an HTTP status…). A sentence opening with a change of
// subject ("another issue", "separately", "unrelated", "on a different note", "one more thing",
// "p.s.", …) starts a new issue, so a conversation raising two problems that way yields two
// issues; anything else, however many sentences or messages, stays one issue (follow-ups are
// usually about the same problem). At most 5 issues per conversation. An issue's title is its
// most problem-like sentence (2 points per cue, 1 per content word up to 8; the first wins ties),
// cut to 100 bytes at a word; its summary its sentences in order, cut to 400 bytes. A
// conversation with only chatter yields one issue from its subject if the subject has content
// words, and none otherwise. Issue IDs derive from (source, conversation ID, position), so
// re-ingesting a conversation gives its issues the same IDs.
//
// # Features
//
// The text of an issue (its sentences; the subject too, for a conversation's first issue) is
// lowercased and split into words; stopwords (English function words and the courtesy and
// generic support vocabulary: "hi", "thanks", "please", "help", "issue", …) are dropped and the
// rest lightly stemmed (plural, -ed, -ing, -ion, final e, doubled consonant). Features are the
// stemmed words, bigrams of adjacent content words, and character trigrams of each unstemmed
// content word padded with "#" (so "biling" and "billing" still share most). Weights are
// (1 + ln tf) × idf with idf = 1 + ln((N+1)/(df+1)) over all issues; the word block (words and
// bigrams) and the trigram block are each normalised, weighted √0.6 and √0.4, so the cosine of
// two issues is 0.6·cos(words) + 0.4·cos(trigrams). IDF changes as issues arrive: every vector
// is recomputed at each batch (linear in the number of issues).
//
// # Clustering a batch
//
// An issue stays in its cluster unless that whole cluster merges into another (step 4); so a
// cluster ID once handed out either keeps its issues or disappears, reported in the Result with
// the issues that moved. New issues, in the order of (source, conversation ID, position), go
// through four steps:
//
//  1. Join: each new issue joins the existing cluster with the highest cosine to its centroid
//     (sum of member vectors) if it is at least AssignThreshold (0.20); all issues are scored
//     against the same centroids, so order does not matter.
//  2. Seed: the issues left are linked when the cosine of their word blocks reaches
//     LinkThreshold (0.30), found with an inverted index; in order of decreasing link count
//     (ties by order), an unassigned issue opens a new cluster and takes its unassigned
//     neighbours.
//  3. Refine: up to RefineRounds (3) rounds in which every new issue moves to the cluster whose
//     centroid is nearest (its own cluster's centroid taken without it) if that beats its own
//     and reaches AssignThreshold; a round scores all issues against the same centroids.
//  4. Merge: agglomerative rounds in which each new cluster, larger first, joins the cluster
//     with the highest average link (mean pairwise cosine, dot(ΣA, ΣB)/(|A|·|B|)) if it reaches
//     MergeThreshold (0.12). Average link rather than centroid cosine, because a burst of
//     near-duplicates forms tight sub-clusters of one topic whose centroids are far apart while
//     their issues are as alike as the topic's others. Existing clusters that gained issues
//     take part too (MergeExisting, on by default): conversations trickling in form small
//     clusters early that only later turn out to be one topic (on the corpus fed twenty at a
//     time, the adjusted Rand index is 0.82 with it, 0.77 without). The cluster that remains is
//     an existing one over a new one, then the larger, then the older.
//
// Scoring an issue against clusters uses an inverted index over the centroids' word features
// to pre-select the Candidates (10) clusters with the highest word score, then scores those
// exactly (through an array over the vocabulary for the largest clusters, at most 2²³ floats in
// all, a map lookup for the rest); issue-to-issue links use an inverted index over word
// features. A batch of 10,000
// conversations is one pass: the cost grows with issues × (features per issue × posting
// length), never with issues².
//
// New clusters are numbered cl_000001, cl_000002, … in the order of their first issue.
// Everything is ordered explicitly (by key, then score, then index) and float sums run in a
// fixed order, so the same batch on the same state gives the same clusters whatever the order
// of its conversations. When a batch repeats a (source, ID), the latest CreatedAt wins, then
// the larger content.
//
// # Describing a cluster
//
// Label: the three most distinctive word features by class-based TF-IDF (share of the
// cluster's issues holding the term × idf; in clusters of three or more a term must occur in
// two issues), skipping terms that repeat a word already chosen, each stem written as its
// commonest word, in the users' case when three times in four they write it so (SSO, PDF,
// GitHub). Icon: from a fixed set of Font Awesome names (the public schema's Icon is such a
// name, at most 50 characters), the one whose keywords weigh most among the ten most
// distinctive terms, "circle-question" when none matches. Summary: the titles of the three
// issues nearest the centroid, skipping a title that repeats one already chosen (trigram
// Jaccard 0.6 or more: the same sentence with a typo). WeeklyPulse: issues per week (Monday
// 00:00 UTC to Monday) by the conversation's creation time, 13 weeks ending with the week
// holding the injected now. Sources: issues per source. Stats: issues, distinct
// conversations; the task counts of the public schema are zero, quire has no tasks.
//
// # Quality
//
// testdata/corpus.jsonl (written by testdata/gencorpus) holds 382 labelled conversations over
// 12 topics, with two-topic conversations and off-topic noise. The adjusted Rand index counts
// every issue, each off-topic issue a class of its own. TestQualityOnSubset requires at least
// 0.7 on half the corpus in one batch, TestQualityStreaming on the whole corpus fed twenty
// conversations at a time; BenchmarkAnalyze10000 reports the index on the whole corpus and on
// 10,000 perturbed samples of it, and the time to analyse those in one batch.
//
// The tuning corpus above is the one the parameters were chosen on. testdata/heldout holds a
// held-out corpus kept apart from it and never tuned on: 90 one-message conversations in 9
// topics, each topic's messages paraphrased with few shared words ("can't get into my account",
// "locked out", "sign-in page just spins"). There the engine, which knows only the words it
// reads, scores an adjusted Rand index of 0.08 (43 clusters for 9 topics): TestQualityHeldOut
// and BenchmarkAnalyze10000 report it. Short paraphrases are tuned on testdata/paraphrase-dev
// instead (100 one-message conversations in 10 documentation-support topics, written apart from
// the held-out corpus and without reading it), where the engine scores 0.105 (43 clusters for 10
// topics); TestTuneParaphrase prints its clusters.
//
// What was measured there for issue 32, and not kept (tuning corpus whole / streamed,
// development corpus): concept features from WordNet (Debian's wordnet-base: a word's commonest
// senses, their hypernyms and derived forms, as a third block of the cosine) gave 0.925 / 0.743 /
// 0.108, and an issue's nearest neighbour was of its own topic 45 times in 100 against 39;
// deeper hypernyms, more or fewer senses, definitions' words, personalised PageRank over
// WordNet's graph and Debian's other thesaurus (Aiksaurus) moved that by ±3 at most, and the best
// sweep of weights and thresholds reached 0.147 on the development corpus at 0.749 / 0.426 on the
// tuning corpus. On the held-out corpus, measured once at the end: 0.084 with WordNet, 0.077
// without. Paraphrases of one problem share neither words nor synsets ("Pictures won't upload",
// "The diagram I dropped in never appears"): what would join them is a semantic model (sentence
// or word embeddings), which nothing installable here ships. So the engine stays on words.
package conversations

//go:generate sh -c "go run ./testdata/gencorpus > testdata/corpus.jsonl"
