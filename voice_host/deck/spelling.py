"""American spellings of British words: what the recogniser writes for them.

Articulate! is a British game and its decks spell the British way (Colour,
Theatre, Jewellery, Pyjamas), but both transcribers write American English:
a describer's "honour" comes out "honor", a guesser's "theatre" "theater".
Forms are matched by their spelling, so a card's forms and answers need the
American spelling beside the British one (session 62's audit: Honour,
Favour, Behaviour, Neighbour had none; only the reviewed list's Colour and
Theatre did).

The spelling rules (:data:`ENDING_RULES`, :data:`INNER_RULES`) and a short
list of whole words (:data:`WORDS`) make candidates; a candidate counts when
the lexicon knows it as a word and, where the dictionary says how both are
said, it is said as the British word ("four" is no British "for", nor "flour"
"flor", nor "filled" "filed").
"""

from __future__ import annotations

import re

from voice_host.deck.lexicon import Lexicon

#: British endings and their American spelling, tried where the ending is the
#: word's end or is followed by one of these endings (colours, coloured,
#: colourful, centres, travelled, organising).
ENDING_RULES: tuple[tuple[str, str], ...] = (
    ("our", "or"),  # colour, honour, behaviour (two syllables or more)
    ("tre", "ter"),  # centre, theatre, metre, litre, fibre
    ("ise", "ize"),  # organise, realise
    ("ising", "izing"),
    ("yse", "yze"),  # analyse, paralyse
    ("ysing", "yzing"),
    ("tred", "tered"),  # centred
    ("isation", "ization"),
    ("ogue", "og"),  # catalogue, dialogue
    ("ence", "ense"),  # defence, offence, licence
)
#: What may follow a British ending inside a word.
_AFTER = (
    r"(?:s|d|ed|ing|er|ers|ite|ites|ful|less|able|ably|hood|hoods|ous|ly|al|ation|ations|r|rs)?"
)
#: Spellings changed inside a word: a doubled l before an ending (travelled,
#: traveller, marvellous).
INNER_RULES: tuple[tuple[str, str], ...] = (
    (r"([aeiou][^aeiou]*?[aeiou])ll(ed|ing|er|ers|ous|ery)\b", r"\1l\2"),
)
#: Whole words the rules cannot reach.
WORDS: dict[str, str] = {
    "pyjamas": "pajamas",
    "tyre": "tire",
    "tyres": "tires",
    "grey": "gray",
    "doughnut": "donut",
    "doughnuts": "donuts",
    "programme": "program",
    "programmes": "programs",
    "kerb": "curb",
    "aluminium": "aluminum",
    "moustache": "mustache",
    "yoghurt": "yogurt",
    "omelette": "omelet",
    "omelettes": "omelets",
    "disc": "disk",
    "discs": "disks",
    "draught": "draft",
    "draughts": "drafts",
    "manoeuvre": "maneuver",
    "sceptic": "skeptic",
    "sceptical": "skeptical",
    "artefact": "artifact",
    "cosy": "cozy",
    "plough": "plow",
    "jewellery": "jewelry",
    "sulphur": "sulfur",
    "encyclopaedia": "encyclopedia",
    "paediatric": "pediatric",
    "paediatrician": "pediatrician",
    "anaemia": "anemia",
    "anaesthetic": "anesthetic",
    "haemorrhage": "hemorrhage",
    "leukaemia": "leukemia",
    "orthopaedic": "orthopedic",
    "foetus": "fetus",
    "oestrogen": "estrogen",
    "diarrhoea": "diarrhea",
    "oesophagus": "esophagus",
    "mould": "mold",
    "moulds": "molds",
    "mouldy": "moldy",
    "moult": "molt",
    "smoulder": "smolder",
    "aeroplane": "airplane",
    "aeroplanes": "airplanes",
}


def _candidates(word: str) -> set[str]:
    out: set[str] = set()
    if word in WORDS:
        out.add(WORDS[word])
    for british, american in ENDING_RULES:
        match = re.fullmatch(rf"(.+?){british}({_AFTER})", word)
        if match:
            out.add(match.group(1) + american + match.group(2))
    for pattern, replacement in INNER_RULES:
        changed = re.sub(pattern, replacement, word)
        if changed != word:
            out.add(changed)
    return out - {word}


def _long_enough_head(word: str, candidate: str) -> bool:
    """Whether the British ending changed ends a longer word, as its rule needs: the
    -our of colour (not hour, four, tour, flour), the -ise of organise (not riser),
    the -ence of defence (not pence)."""
    for british, american in (("our", "or"), ("is", "iz"), ("ence", "ense")):
        if british in word and american in candidate and british not in candidate:
            head = word.split(british, 1)[0]
            if len(head) < 3 or not re.search(r"[aeiouy]", head):
                return False
    return True


def american_spellings(word: str, lexicon: Lexicon) -> set[str]:
    """The American spellings of the British ``word`` ("honour" -> {"honor"},
    "travelled" -> {"traveled"}), or an empty set."""
    if not re.fullmatch(r"[a-z]+", word):
        return set()
    british = lexicon.all_prons(word)
    out: set[str] = set()
    for candidate in _candidates(word):
        if not lexicon.is_word(candidate):
            continue
        american = lexicon.all_prons(candidate)
        listed = WORDS.get(word) == candidate  # read already: tyre T AY R, tire T AY ER
        if british and american and not listed and not set(british) & set(american):
            continue  # said otherwise: filled is no filed, flour no flor
        if not _long_enough_head(word, candidate):
            continue
        out.add(candidate)
    return out
