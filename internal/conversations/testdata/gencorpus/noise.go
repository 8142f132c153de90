package main

var greetings = []string{
	"Hi there,", "Hello!", "Hey team,", "Hi,", "Good morning,", "Hello support,", "Dear support team,",
	"Hi folks!", "Hey!", "Hello, hope you're doing well.", "Hi, I hope you are having a great week.",
}

var intros = []string{
	"I'm the docs lead at our company.", "We've been customers for two years now.",
	"Quick question from our engineering team.", "I work on the developer portal at Acme.",
	"Long time user, first time writing in.", "Our team of twelve relies on your product every day.",
}

var closings = []string{
	"Thanks in advance!", "Thank you so much for your help.", "Appreciate any help.",
	"Looking forward to hearing from you.", "Thanks!", "Any help is much appreciated.",
	"Have a nice day!", "Many thanks.", "Thanks a lot, you're great.", "Cheers and thanks for the quick reply.",
}

var signoffs = []string{"Best,", "Cheers,", "Regards,", "Thanks,", "Kind regards,", "Best regards,", "--", "Warm wishes,"}

var names = []string{"Anna", "Tom", "Priya", "Jonas", "María", "Kenji", "Olu", "Sam", "Chloé", "Dmitri", "Lena Fischer", "Raj"}

var genericAttempts = []string{
	"I already cleared my browser cache.", "I restarted my computer just in case.",
	"I tried with another browser too.", "Nothing in your status page mentions it.",
	"A colleague sees the same behaviour.",
}

var shifts = []string{
	"Another issue:", "Separately,", "Unrelated, but", "On a different note,", "One more thing:",
	"Also, unrelated:", "P.S.", "Another problem:", "While I have you,",
}

var followUps = []string{
	"Any update on this?", "It's still happening today.", "Thanks, I sent the screenshot.",
	"Still not fixed on our side.", "Bumping this, we're blocked.", "Here is the screenshot you asked for.",
	"Thanks, waiting for your answer.", "Ok thanks.",
}

var teamReplies = []string{
	"Thanks for reaching out! Could you share a screenshot?",
	"Hi, thanks for the report, we're looking into it.",
	"Could you tell us which browser you use?",
	"Sorry for the trouble. Can you send us the URL?",
	"Thanks! I've escalated this to our engineers.",
	"Have you checked your billing settings and your custom domain DNS?",
}

var noiseSubjects = []string{"Hello", "Quick question", "Hi", "Feedback", "Hey", "Partnership"}

var noiseMessages = []string{
	"Just wanted to say we love the product, keep it up!",
	"Do you have any job openings for technical writers?",
	"Can we get some stickers for our office?",
	"Are you attending the developer conference in Berlin this spring?",
	"Please remove me from your marketing newsletter.",
	"We would love to feature your company in our podcast.",
	"Is your office open on public holidays?",
	"Great webinar yesterday, will the recording be shared?",
	"Hello?",
	"test",
	"What's your favourite feature on the roadmap?",
	"I'm a student writing a thesis about documentation tools, can I interview someone?",
	"Happy new year to the whole crew!",
	"Could you send your company's mailing address for our vendor form?",
	"Our agency would like to discuss a reseller partnership.",
	"Who designed your beautiful illustrations?",
	"I filled in your survey, where do I claim the gift card?",
	"Do you offer discounts for nonprofits?",
}
