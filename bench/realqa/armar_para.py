"""Held-out: the ARMAR-7 questions of armar.py asked again in other words.

Each paraphrase keeps its original's asking time, kind and truth (computed
from the raw tree file by armar.py), so only the wording changes: other
verbs and nouns for the same thing, colloquial and shortened forms, word
order, a typo.  They were written before looking at h2emv's answers to
them, and are not to be tuned on: a change that helps here only by knowing
these sentences does not count (docs/realqa.md, "Held-out questions").
"""

import armar

# armar.py's question number (1-based, in its order) -> the same question in
# other words.
PARAPHRASES = {
    1: "when did u first introduce yourself by name?",
    2: "What time did you greet the minister?",
    3: "When did you last deliver milk to a person?",
    4: "When was your first successful milk delivery?",
    5: "What time did you go over to the sideboard the second time on "
       "June 26th?",
    6: "When did you last load the dishwasher?",
    7: "At what time did you last wave hello?",
    8: "Where was the first place you drove to on the 26th of June?",
    9: "The last time you brought milk to someone, where did you pick it "
       "up?",
    10: "Where did you give the milk to the person on Saturday?",
    11: "From where did you first take the milk on July 13th?",
    12: "What was the first day you loaded the dishwasher?",
    13: "Which day did you first try to bring someone milk?",
    14: "Which day did you first do your whole introduction?",
    15: "Who did you say hello to on June 27th?",
    16: "What's the name of the person you tried to learn yesterday?",
    17: "What did you say to the minister?",
    18: "What was your answer today the last time somebody asked you what "
        "you can see?",
    19: "What did you say on June 26 when you didn't recognise an object?",
    20: "What things did you spot on Thursday June 27?",
    21: "What did you see when you looked ahead on Saturday?",
    22: "What did you try to pick up on June 27?",
    23: "What object's name did you learn on Wednesday?",
    24: "How often did you introduce yourself on Saturday?",
    25: "How many successful milk deliveries did you make on July 13?",
    26: "how many times did you wave hello on saturday",
    27: "Did you succeed in learning John Handover's face?",
    28: "Did you fill the dishwasher yesterday?",
    29: "Did you manage to pick up the milk on June 27?",
    30: "Why couldn't you bring the milk on June 27?",
    31: "What failed on Friday, July 12?",
}


def questions(data_dir):
    items, a = armar.questions(data_dir)
    out = []
    for i, q in enumerate(items, 1):
        if i not in PARAPHRASES:
            continue
        q = dict(q)
        q["source"] = "armar-para"
        q["id"] = "armar-para-%02d" % i
        q["question"] = PARAPHRASES[i]
        out.append(q)
    assert len(out) == len(PARAPHRASES), "armar.py's questions changed"
    return out, a
