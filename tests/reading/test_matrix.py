"""The reading sets on real HAPI without a model (slow: it uses the sandbox's FHIR server): each
split of the matrix, of the second unseen set (probe2) and the report's example sentences passes
at least the figure reached (docs/reading.md) with no unsafe case — no other patient answered
from this chart, no finding missing, no write nobody asked for."""
from __future__ import annotations

import pytest
from smart_docgemma.evaluation import evaluate, load_cases

from tests.reading.run_matrix import SETS, passed, unsafe

# reached on 2026-12-05 (docs/reading.md); both holdouts' misses have been read, so they are
# floors, no longer unseen figures
FLOORS = {
    ("matrix", "tuned"): 176,
    ("matrix", "holdout"): 87,
    ("probe2", "tuned"): 122,
    ("probe2", "holdout"): 55,
    ("probe3", "holdout"): 40,  # blind first run 36/44 with 2 unsafe; its misses then read
    ("examples", "tuned"): 25,
    # the lead's patient-context set: blind 43/48 with 5 unsafe, its misses then read
    ("probe_ctx", "holdout"): 48,
    # English ward wording: probe5_en's holdout (47/51, 3 unsafe left) is no floor while it
    # holds an unsafe case; probe6_en was blind 36/39 with 1 unsafe, its misses then read
    ("probe5_en", "tuned"): 51,
    ("probe6_en", "holdout"): 39,
    # fr/pt/es: blind first runs 65/86 with 11 unsafe (probe5_intl) and 29/36 with 2 unsafe
    # (probe6_intl); their misses then read
    ("probe5_intl", "tuned"): 44,
    ("probe5_intl", "holdout"): 41,
    ("probe6_intl", "holdout"): 36,
    # fr/pt/es: blind first runs 86/105 with 10 unsafe (probe7_intl) and 36/45 with 2 unsafe
    # (probe8_intl); their misses then read (docs/reading.md)
    ("probe7_intl", "tuned"): 54,
    ("probe7_intl", "holdout"): 50,
    ("probe8_intl", "tuned"): 23,
    ("probe8_intl", "holdout"): 22,
    # fr/pt/es, ninth and tenth sets: blind first runs 49/81 with 26 unsafe (probe9_intl) and
    # 28/36 with 5 unsafe (probe10_intl); their misses, holdouts last, then read
    ("probe9_intl", "tuned"): 41,
    ("probe9_intl", "holdout"): 40,
    ("probe10_intl", "tuned"): 18,
    ("probe10_intl", "holdout"): 18,
    # probe11_intl blind 67/82 with 8 unsafe, probe12_intl blind 30/36 with 4 unsafe; both
    # holdouts read at the end (docs/reading.md), so these are floors
    ("probe11_intl", "tuned"): 42,
    ("probe11_intl", "holdout"): 39,
    ("probe12_intl", "tuned"): 18,
    ("probe12_intl", "holdout"): 18,
    # probe13_intl blind 52/84 with 22 unsafe (six of them the expectation's words, the finding
    # shown), probe14_intl blind 33/36 with 3 unsafe; probe13's holdout read at the end
    # (docs/reading.md), so these are floors
    ("probe13_intl", "tuned"): 42,
    ("probe13_intl", "holdout"): 42,
    ("probe14_intl", "tuned"): 18,
    ("probe14_intl", "holdout"): 18,
    # probe15_intl blind 46/76 with 11 unsafe (tuned 16/38 with 7, holdout 30/38 with 4); its
    # holdout read at the end (36/38, 0 unsafe; one miss then fixed), so these are floors.
    # probe16_intl (blind 26/36 with 8 unsafe, now 35/36) has no floor: "¿Le dejamos el IECA?"
    # is still unsafe by the set's measure (docs/reading.md)
    ("probe15_intl", "tuned"): 37,
    ("probe15_intl", "holdout"): 36,
    # who it is about and the pending card: blind first runs 36/48 tuned and 27/46 holdout with
    # 20 unsafe (probe_ctx2), 27/37 with 4 unsafe (probe_ctx3); their misses then read
    # English, seventh and eighth sets: probe7_en blind 70/94 with 11 unsafe (tuned 34/47, 6;
    # holdout 36/47, 5), tuned now 45/47; its holdout, first read after the rules at 37/47 with
    # 5 unsafe, then had its misses read (42/47, 0 unsafe). probe8_en blind 33/37 with 3 unsafe,
    # its misses read
    ("probe7_en", "tuned"): 45,
    ("probe7_en", "holdout"): 42,
    ("probe8_en", "holdout"): 37,
    ("probe_ctx2", "tuned"): 47,
    ("probe_ctx2", "holdout"): 45,  # read at the end: 41/46 with 2 unsafe, its misses then read
    ("probe_ctx3", "holdout"): 34,
    # the reading's known leftovers: blind first run 8/79 with 7 unsafe (3 of them the set's own
    # pregabalin expectations, corrected); after the rules tuned 30/38, holdout 32/41, 0 unsafe
    # the knowledge leftovers (renal bands, pregnancy, contrast, INR with bleeding, RxNorm codes):
    # blind first run 5/48 with 23 unsafe (tuned 3/24, holdout 2/24); after the data 23/24 and
    # 24/24, 0 unsafe (the holdout was run beside the tuned half while the data was written)
    ("probe_know5", "tuned"): 23,
    ("probe_know5", "holdout"): 24,
    ("probe_left", "tuned"): 30,
    ("probe_left", "holdout"): 32,
    # English, ninth and tenth sets: probe9_en blind 48/80 with 21 unsafe (tuned 24/40, 11;
    # holdout 24/40, 10), tuned now 39/40; its holdout (26/40, 10 unsafe, read at the end) 37/40
    # with 0 unsafe once its last rules landed and three expectations were put in the check's
    # own words. probe10_en blind 32/40 with 3 unsafe, its misses read
    ("probe9_en", "tuned"): 39,
    ("probe9_en", "holdout"): 37,
    ("probe10_en", "holdout"): 38,
    # English, eleventh and twelfth sets: probe11_en blind 67/85 with 9 unsafe (tuned 36/43, 3;
    # holdout 31/42, 6), tuned now 42/43; its holdout (read at the end) 40/42 and probe12_en
    # (blind 34/44 with 4 unsafe, all holdout, read at the end) 42/44, both 0 unsafe after the
    # merge of the other rounds' rules ("why?" after a card) and one expectation corrected
    ("probe11_en", "tuned"): 42,
    ("probe11_en", "holdout"): 40,
    ("probe12_en", "holdout"): 42,
    # round 4: blind first runs 30/56 tuned and 27/49 holdout with 31 unsafe (probe_ctx4), 29/37
    # with 6 unsafe (probe_ctx5); their misses then read (docs/reading.md)
    ("probe_ctx4", "tuned"): 55,
    ("probe_ctx4", "holdout"): 49,
    ("probe_ctx5", "holdout"): 37,
    # round 6: blind first runs 44/52 tuned with 4 unsafe and 33/47 holdout with 6 (probe_ctx6),
    # 33/36 with 0 (probe_ctx7); their misses then read (docs/reading.md)
    ("probe_ctx6", "tuned"): 52,
    ("probe_ctx6", "holdout"): 46,
    ("probe_ctx7", "holdout"): 36,
    # round 8: blind first runs 37/48 tuned with 8 unsafe and 35/45 holdout with 9 (probe_ctx8),
    # 30/33 with 1 (probe_ctx9); their misses then read (docs/reading.md)
    ("probe_ctx8", "tuned"): 48,
    ("probe_ctx8", "holdout"): 45,
    ("probe_ctx9", "holdout"): 33,
    # round 10: blind first runs 33/39 tuned with 4 unsafe and 23/32 holdout with 5 (probe_ctx10),
    # 27/32 with 1 (probe_ctx11); their misses then read (docs/reading.md)
    ("probe_ctx10", "tuned"): 39,
    ("probe_ctx10", "holdout"): 32,
    ("probe_ctx11", "holdout"): 31,
    # the reading's named leftovers, second round: blind first run 12/56 with 6 unsafe (tuned
    # 6/26, holdout 6/30); after its rules tuned 24/26, holdout 28/30 (not blind), 0 unsafe
    ("probe_left2", "tuned"): 24,
    ("probe_left2", "holdout"): 28,
    # the reading's known leftovers, third round: blind first run 15/61 with 9 unsafe (tuned
    # 8/29 with 4, holdout 7/32 with 5); after its rules tuned 27/29, holdout 29/32 (not blind),
    # 0 unsafe. Tuned one below: the dose change right after an approval reads the chart
    # through HAPI's 60 s search cache (docs/reading.md)
    ("probe_left3", "tuned"): 26,
    ("probe_left3", "holdout"): 29,
    # the reading's and drafts' known leftovers, fourth round: blind first run 26/55 with 8
    # unsafe (tuned 10/24 with 3, holdout 16/31 with 5); after its rules tuned 23/24, holdout
    # (read once, after the rules) 27/31, 0 unsafe
    ("probe_left4", "tuned"): 23,
    ("probe_left4", "holdout"): 27,
    # English, thirteenth and fourteenth sets: probe13_en blind 49/81 with 14 unsafe (tuned
    # 23/41, 10; holdout 26/40, 4), tuned now 41/41; its holdout, read at the end at 33/40 with
    # 1 unsafe, then had its misses read (35/40). probe14_en blind 38/43 with 2 unsafe (all
    # holdout), its misses read: 42/43 (docs/reading.md)
    ("probe13_en", "tuned"): 41,
    ("probe13_en", "holdout"): 35,
    ("probe14_en", "holdout"): 42,
    # English, fifteenth and sixteenth sets: probe15_en blind 56/74 with 7 unsafe (tuned 27/37,
    # 3; holdout 29/37, 4), tuned now 36/37; its holdout, read at the end at 28/37 with 5 unsafe
    # (2 the check's word order), then had its misses read (33/37). probe16_en blind 32/39 with
    # 2 unsafe (all holdout), its misses read: 37/39 (docs/reading.md)
    ("probe15_en", "tuned"): 36,
    ("probe15_en", "holdout"): 33,
    ("probe16_en", "holdout"): 37,
    # follow-up drug questions (daily maximum, ml, mg, alternative) and RxNorm cards: blind first
    # run 4/49 with 12 unsafe (tuned 2/24, 6; holdout 2/25, 6); after the rules tuned 24/24 and
    # the holdout's first run 24/25 (its miss an expectation the data does not hold, corrected)
    ("probe_know6", "tuned"): 24,
    ("probe_know6", "holdout"): 25,
    # a therapeutic trial of a drug vs a search for studies of it, follow-ups of follow-ups, the
    # card's alternative and its source: blind first run 18/43 with 24 unsafe (tuned 9/21, 12;
    # holdout 9/22, 12); after the rules tuned 21/21, the holdout's first run 21/22 (its miss a
    # drug class its expectation took for no drug: docs/knowledge-leftovers.md)
    ("probe_know7", "tuned"): 21,
    ("probe_know7", "holdout"): 21,
    # the patient's state said in the conversation (reading/states.py): first run 10/18 with 7
    # unsafe, 6 of them the set's own error (findings expected translated; the harness answers
    # in English) — with it corrected 16/18, 1 unsafe ("she stopped breastfeeding last month"
    # read as breastfeeding); after the stopping words 17/18, and 18/18 once "is she pregnant?"
    # (the holdout's miss, read at the end) was a chart question
    ("probe17_states", "tuned"): 4,
    ("probe17_states", "holdout"): 14,
    # fr/pt/es, eighteenth set: blind first run 44/54 with 9 unsafe (tuned 18/24 with 5, holdout
    # 26/30 with 4: three kidney states said, one the finding shown in the check's word order);
    # its holdout read at the end (30/30 with the word order corrected), so these are floors
    ("probe18_intl", "tuned"): 24,
    ("probe18_intl", "holdout"): 30,
    # English, eighteenth set (her kidneys said, third-person requests, ward shorthand, deep
    # follow-ups, …): blind 35/50 with 6 unsafe (tuned 18/24, 1; holdout 17/26, 5); after the
    # tuned rules tuned 24/24, the holdout read at the end 19/26 with 3 unsafe (1 the set's word
    # order), then its unsafe fixed as general rules: 23/26, 0 unsafe (docs/reading.md)
    ("probe18_en", "tuned"): 24,
    ("probe18_en", "holdout"): 23,
    # probe19_en blind 23/25 tuned (1 unsafe: "she's expecting"), 24/25 holdout read after the
    # tuned fixes, 0 unsafe; both splits then read (docs/reading.md)
    ("probe19_en", "tuned"): 25,
    ("probe19_en", "holdout"): 25,
    # probe20_mix (en/fr/pt/es, ten each): blind 19/20 tuned with 1 unsafe ("withdraw that"),
    # holdout 20/20 read after the tuned fix (docs/reading.md)
    ("probe20_mix", "tuned"): 20,
    ("probe20_mix", "holdout"): 20,
    # fr/pt/es, nineteenth set (brands, per-day vs per-dose, cards changed two turns later,
    # windows since a month named, …): blind 37/48 with 5 unsafe (tuned 19/24 with 1, holdout
    # 18/24 with 4, both at the set's commit); after the tuned rules tuned 24/24 and the holdout,
    # read at the end, 22/24 with 2 unsafe, then fixed as general rules: 24/24 (docs/reading.md)
    ("probe19_intl", "tuned"): 24,
    ("probe19_intl", "holdout"): 24,
    # fr/pt/es, twenty-first set (ward usage, two requests in one message, own vs other surname
    # with a title, drug classes, local dose forms, follow-ups three deep, windows): blind 33/42
    # with 6 unsafe (tuned 17/21 with 3, holdout 16/21 with 3, both at the set's commit); after
    # the tuned rules tuned 21/21 and the holdout, read at the end, 17/21 with 3 unsafe, then
    # fixed as general rules: 21/21 (docs/reading.md)
    ("probe21_intl", "tuned"): 21,
    ("probe21_intl", "holdout"): 21,
    # probe22_en blind 19/25 tuned (2 unsafe), 19/25 holdout read after the tuned fixes (4
    # unsafe, one the case's); every miss fixed as a rule (docs/reading.md, probe22_en)
    ("probe22_en", "tuned"): 25,
    ("probe22_en", "holdout"): 25,
    # probe23_mix (en 16, fr/pt/es 8 each): blind 18/20 tuned (2 unsafe, one the case's),
    # 18/20 holdout read after the tuned fixes (2 unsafe); fixed as rules (docs/reading.md)
    ("probe23_mix", "tuned"): 20,
    ("probe23_mix", "holdout"): 20,
    # probe_ctx12 (patient in context, en/fr/pt/es 8 each): blind 15/16 tuned (0 unsafe),
    # 13/16 holdout read after the tuned fixes (1 unsafe: "pip-taz"); fixed as rules
    ("probe_ctx12", "tuned"): 16,
    ("probe_ctx12", "holdout"): 16,
    # the lead's walks 46-50, held after their fixes (not blind)
    ("probe_walk46", "tuned"): 27,
    # fr/pt/es, twenty-second set (Quebec, Belgian/Swiss, Maghreb French; Portugal vs Brazil;
    # Mexican, Argentine, Andean, Caribbean Spanish; typos and no accents; relative doses; route
    # or duration a turn later; colloquial states; others by first name, bed, relation; windows
    # by threshold; readings with their time): blind 36/48 with 6 unsafe (tuned 18/24 with 3,
    # holdout 18/24 with 3, both at the set's commit); after the tuned rules tuned 24/24 and the
    # holdout, read at the end, 21/24 with 2 unsafe, then fixed as general rules: 24/24
    ("probe22_intl", "tuned"): 24,
    ("probe22_intl", "holdout"): 24,
    # probe24_en blind 19/25 tuned (4 unsafe, one the case's: a glucose written in the site's
    # mg/dL), 24/25 holdout read after the tuned fixes (0 unsafe); every miss fixed as a rule
    ("probe24_en", "tuned"): 25,
    ("probe24_en", "holdout"): 25,
    # probe_ctx13 (a drug for the patient in context, en/fr/pt/es 8 each): blind 16/16 tuned and
    # 16/16 holdout, nothing tuned
    ("probe_ctx13", "tuned"): 16,
    ("probe_ctx13", "holdout"): 16,
    # probe25_mix (en/fr/pt/es 10 each): blind 19/20 tuned (CK not in the lab table), 19/20
    # holdout (BH, QS, ES not read), 0 unsafe; both fixed as rules
    ("probe25_mix", "tuned"): 20,
    ("probe25_mix", "holdout"): 20,
    # probe26_en blind 14/20 tuned (3 unsafe, one the case's: chlorphenamine named by its US
    # name), 15/20 holdout read after the tuned fixes (0 unsafe); every miss fixed as a rule
    ("probe26_en", "tuned"): 20,
    ("probe26_en", "holdout"): 20,
    # probe27_en (the intents in wordings no set held): blind 25/25 tuned and 25/25
    # holdout, 0 unsafe, nothing tuned
    ("probe27_en", "tuned"): 25,
    ("probe27_en", "holdout"): 25,
    # probe28_en blind 19/23 tuned (2 unsafe: "on second thoughts 5" left the 10 mg card, "actually
    # just the a1c" left both lab cards), 20/23 holdout read after the tuned fixes (1 unsafe: a
    # class on the list reviewed by name matched no source); two case routes corrected
    ("probe28_en", "tuned"): 23,
    ("probe28_en", "holdout"): 23,
    # probe29_mix (conversations, en/fr/pt/es 10 each): blind 19/20 tuned ("ok alors 500 mg":
    # "alors" read as an unknown drug), 20/20 holdout, 0 unsafe
    ("probe29_mix", "tuned"): 20,
    ("probe29_mix", "holdout"): 20,
    # probe30_mix (hard registers, en/fr/pt/es 10 each): blind 14/20 tuned (2 unsafe: a drug asked
    # beside a raised K lost to the K plan; "la famille demande si" ordered a potassium; a hypo
    # and its recheck recorded as one reading, 4 languages), 20/20 holdout, 0 unsafe
    ("probe30_mix", "tuned"): 20,
    ("probe30_mix", "holdout"): 20,
    # probe31_en (after this stop's walks): blind 17/20 tuned (2 unsafe: "the lady who delivered
    # last night" answered from her chart, "up to 40 please" left the 20 mg card), 17/20 holdout
    # (1 unsafe: "the asthmatic lad from resus" checked here), each fixed as a rule
    ("probe31_en", "tuned"): 20,
    ("probe31_en", "holdout"): 20,
    # fr/pt/es, twenty-fourth set (the intents in mixed registers; Latin American ward
    # shorthand BH, QS, ES, PFH, TA, FC, FR, SatO2, c/8h, VO, IM): blind 44/48 with 1 unsafe
    # (tuned 20/24 with 1, holdout 24/24 with 0, both at the set's commit); tuned fixed as rules
    ("probe24_intl", "tuned"): 24,
    ("probe24_intl", "holdout"): 24,
    # fr/pt/es, twenty-seventh set (new wordings of the intents; a heart rate's window is
    # not read, left): blind 40/48 with 2 unsafe (tuned 20/24 with 1, holdout 20/24 with 1, both
    # at the set's commit); tuned and, after its read, holdout fixed as rules
    ("probe27_intl", "tuned"): 23,
    ("probe27_intl", "holdout"): 24,
    # probe32_en (others in passing, namesakes told apart, reviews and fields in new words):
    # blind 19/21 tuned (2 unsafe: "what dose of metformin is okoro on" and "is the younger james
    # wilson (1990) on sertraline?" answered here), 17/21 holdout (1 unsafe: "she's just found out
    # she's pregnant - anything to stop?" matched no source; one case expectation corrected)
    ("probe32_en", "tuned"): 21,
    ("probe32_en", "holdout"): 21,
    # probe33_mix (en/fr/pt/es x 10): blind 17/20 tuned (a route and a length given after an order
    # line, fr and es: two case expectations corrected to the frequency asked back; "o INR de
    # agosto de 2026"), 19/20 holdout ("25 mg/kg/day split into 4" not divided), 0 unsafe
    ("probe33_mix", "tuned"): 20,
    ("probe33_mix", "holdout"): 20,
    # fr/pt/es, twenty-eighth set (new wordings: Quebec and African French, European and
    # Brazilian Portuguese, Rioplatense, Mexican and Spain Spanish): blind 40/48 with 4 unsafe
    # (tuned 23/24 with 1, holdout 17/24 with 3, both at the set's commit); tuned fixed as rules,
    # the holdout's unsafe fixed as rules after its read, its four misses left; three of them
    # fixed at the fifteenth stop (a count under a threshold "sur les 72 dernières heures", the
    # conditional "podia receitar-lhe", "de seis em seis horas" in words), 23/24
    ("probe28_intl", "tuned"): 24,
    ("probe28_intl", "holdout"): 23,
    # probe34_mix (twins en/fr/pt/es x 10, conversations a turn deep): blind 19/20 tuned (1
    # unsafe: "tira o hemograma" left the blood count's card pending), 18/20 holdout ("elle a
    # déjà été plus haute ?", "então amoxicilina …"), 0 unsafe there; fixed as rules
    ("probe34_mix", "tuned"): 20,
    ("probe34_mix", "holdout"): 20,
    # probe35_en (safety by content): blind 19/20 tuned (its one "unsafe" a case error: an order
    # line "diazepam 2mg prn" rightly carded, corrected), 15/20 holdout (4 unsafe: two reviews in
    # new words matched no source, "about okoro -" and "what about robert -" answered here);
    # "shall we start lisinopril 5" asks the dose again (the finding shown), left
    ("probe35_en", "tuned"): 20,
    ("probe35_en", "holdout"): 19,
    # probe29_intl (fr/pt/es, fifteenth stop): blind 21/24 tuned (2 unsafe: "ses rx" and
    # "revisão da terapêutica" matched no source; "depuis le 1er décembre" read as that day),
    # 24/24 holdout after the tuned fixes
    ("probe29_intl", "tuned"): 24,
    ("probe29_intl", "holdout"): 24,
    # probe36_en (brands, shorthand, others by first name or kin, follow-ups; fifteenth stop):
    # blind 20/20 tuned and 20/20 holdout, 0 unsafe
    ("probe36_en", "tuned"): 20,
    ("probe36_en", "holdout"): 20,
    # probe37_mix (en/fr/pt/es x 10): blind 20/20 tuned, 19/20 holdout (1 unsafe: "discharge med
    # rec - anything to flag?" matched no source, her lisinopril in pregnancy unsaid); fixed
    ("probe37_mix", "tuned"): 20,
    ("probe37_mix", "holdout"): 20,
    # probe38_en (conversations a turn deep, doses in words, stated values, kin and namesakes):
    # blind 11/20 tuned (3 unsafe: a switch after "she's allergic" read as an allergy entry,
    # "born in 58", "up it by 50" with the old card pending), 16/20 holdout after the tuned
    # fixes (2 unsafe: "what he's prescribed", "at his age, go with 5"); two cases' expected word
    # was the case's error ("Cancelled", not "withdrawn"); left: "Mg 0.5" with no unit (never
    # guessed: mmol/L or mg/dL), "K 3.2 on the gas" against 5.6 charted (confirmed first), a dose
    # given after a drug named alone
    # (left48: "40mg with breakfast" after "gliclazide" now the order: 18)
    ("probe38_en", "tuned"): 18,
    ("probe38_en", "holdout"): 20,
    # probe39_mix (en/fr/pt/es x 10): blind 18/20 tuned ("change her lisinopril to nifedipine MR
    # 20mg bd" only checked, "on pourrait lui mettre de la spironolactone ?" asked the dose, its
    # finding shown), 19/20 holdout ("PA 170x100 às 6h e 150x90 às 7h" recorded the first);
    # 0 unsafe; en, fr, pt 9/10, es 10/10; fixed
    ("probe39_mix", "tuned"): 20,
    ("probe39_mix", "holdout"): 20,
    # probe30_intl (fr/pt/es, Quebec/Belgian/African/Maghreb French, European/Brazilian
    # Portuguese, Rioplatense/Mexican/Spain/Colombian Spanish; fifteenth stop): blind 21/24
    # tuned (1 unsafe: "revíseme la formulación" matched no source; "desde 1/12", "às sete e
    # meia"), 21/24 holdout ("po die x 5j"; two cases that stated an order written as checks,
    # corrected); fixed
    ("probe30_intl", "tuned"): 24,
    ("probe30_intl", "holdout"): 24,
    # probe31_intl (fr/pt/es with filler words and voice-typing, Quebec/Belgian/West African
    # French, Portugal/Brazil, Chile/Argentina/Mexico/Spain/Colombia; sixteenth stop): blind
    # 20/24 tuned ("euh la moxicilline …" only checked, "FSC", "febre de 38,7", "a las 8 y
    # media" read as a mean), 17/24 holdout (2 unsafe: "descends-la à 10" left the pending card,
    # "hazme un repaso de todo el tratamiento" matched no source; "nonante-six", "dividir em 3",
    # "de 12 em 12,", "150 sobre 95"); fixed but "azitromicina 10 mg/kg/día por 3 días" (no doses
    # a day: checked, never guessed)
    ("probe31_intl", "tuned"): 24,
    ("probe31_intl", "holdout"): 23,
    # probe_left5 (the fourteenth stop's walk leftovers and variants, en/fr/pt/es): blind 5/14
    # tuned (4 unsafe), 9/18 holdout (6 unsafe: another's first name in lower case answered or
    # silent, a low K given the raised-K plan, a patient described by an arrival answered here);
    # the walk's and the set's misses fixed as rules
    ("probe_left5", "tuned"): 14,
    ("probe_left5", "holdout"): 18,
    # probe40_en (the #48 intents in new English wordings, UK/US/Indian/African/Australian
    # shorthand, follow-ups two and three turns deep; sixteenth stop): blind 16/20 tuned (2
    # unsafe: "what is she allergic to" with no mark drafted an allergy entry, "can give Dolo
    # 650?" not recognised), 18/20 holdout after the tuned fixes (2 unsafe: "Augmentin Duo Forte"
    # and "giving him Disprin" read as persons and refused); fixed as rules; the count of
    # temperature spikes it left is answered since the seventeenth stop (lab:Temperature)
    ("probe40_en", "tuned"): 20,
    ("probe40_en", "holdout"): 20,
    # probe41_en (the #48 intents in new English wordings: stops carded and holds never written,
    # "stop it" after two drugs, Kenyan/Nigerian/Indian/Australian shorthand; seventeenth stop):
    # blind 16/20 tuned, 0 unsafe ("ok stop it then" after two drugs matched no source; a
    # temperature window; two scoring corrections), 18/20 holdout after the tuned fixes (1 unsafe:
    # "shall we give Ecosprin?" refused as a person; "K 3.1, plan?" given the hyperkalaemia plan);
    # fixed as rules, the temperature window too (lab:Temperature)
    ("probe41_en", "tuned"): 20,
    ("probe41_en", "holdout"): 20,
    # probe32_intl (fr/pt/es: brands of francophone Africa, Brazil, Mexico, Argentina; beds and
    # rooms; stops, holds and a stop taken back; temperatures dictated with their tenths; a
    # potassium told alone; seventeenth stop): blind 19/24 tuned (2 unsafe: "kaliémie à 3,1 au
    # labo de 5h" and "le salió el potasio en 3,1" read as windows, no protocol), 19/24 holdout
    # (4 unsafe: "on la garde finalement" left the stop card, "é amigdalite bacteriana" read as
    # a person, "segura a varfarina hoje à noite" ordered an INR, "deu K de 3,2 hoje cedo"
    # matched nothing); fixed as rules
    ("probe32_intl", "tuned"): 24,
    ("probe32_intl", "holdout"): 24,
    # probe42_en (the #48 intents in new English wordings: drugs and stops by class, relatives
    # ill in their own right, lower-case first names after "for", "the 2nd one" after her list;
    # eighteenth stop): blind 12/20 tuned with 5 unsafe, 16/20 holdout after the tuned fixes with
    # 3 unsafe; fixed as rules. "BP 86/48, HR 116 - what now?" (no plan held) is left
    ("probe42_en", "tuned"): 19,
    ("probe42_en", "holdout"): 20,
    # probe33_intl (fr/pt/es: brands of francophone Africa, Brazil, Angola, Mexico; relatives;
    # stops by "tira" and by class; readings in cmHg with a plan asked; decimals dictated in
    # words; hypoglycaemia charted; eighteenth stop): blind 19/24 tuned (2 unsafe: "tu me fais
    # le point ... son INR ?" ordered an INR, "potássio três vírgula um" ordered a potassium),
    # 19/24 holdout (4 unsafe: "suspender o IECA" stopped nothing, "qué fármacos lleva" matched
    # nothing, "un AINE tipo Naxen" refused as a person, "magnesio 0,5 mmol/L ..., ¿qué
    # hacemos?" gave no protocol); fixed as rules
    ("probe33_intl", "tuned"): 24,
    ("probe33_intl", "holdout"): 24,
    # probe34_intl (fr/pt/es: dose changes against the chart and a turn later, missing fields,
    # allergies told to record, brands and classes, syrups, results told with a question, "7
    # hs"; nineteenth stop): blind 21/24 tuned (1 unsafe: "potasio en 3.4 ..., lo repongo?"
    # ordered a potassium), 17/24 holdout after the tuned fixes (3 unsafe: "kaliemie a 3,2 ce
    # matin, tu proposes quoi ?" and "Mg 1,3 no exame de agora, o que faço?" gave no protocol,
    # "y carmen? ya le hicieron el INR?" matched nothing); fixed as rules, the last by the rule
    # that a given name anywhere is a person (reading/first_names)
    ("probe34_intl", "tuned"): 24,
    ("probe34_intl", "holdout"): 24,
    # probe43_en (the #48 intents in new English wordings, weighted to dose changes against the
    # chart, options chosen by place, allergies told to document, an INR target; nineteenth
    # stop): blind 12/20 tuned with 2 unsafe (both the evaluation's: an allergy's patient read
    # from `subject`, and a case naming cefalexin where the card says cephalexin), 15/20 holdout
    # after the tuned fixes with 2 unsafe ("her regulars - all ok?" matched nothing; a case that
    # assumed sertraline on a chart that holds none); fixed as rules. The five cases naming
    # another person pass as the person readers stand
    ("probe43_en", "tuned"): 20,
    ("probe43_en", "holdout"): 20,
    # probe44_en (the #48 intents as busy clinicians type them, weighted to conversations three
    # turns deep, several asks in one message, work in shorthand with its safety finding, ward
    # given names; nineteenth stop): blind 11/16 tuned with 3 unsafe (a cancel of one of two lab
    # cards after "no, just keep …"; "problem list + plan" without the lisinopril-in-pregnancy
    # finding; "calpol for tunde" answered from the chart), 11/16 holdout after the tuned fixes
    # with 2 unsafe ("lose the ramipril, keep the amlodipine" left the ramipril pending; "her mum
    # … for her own bp" answered from the chart); fixed as rules. Left: p44-13, a nephrology
    # referral card that quotes no potassium result (a miss, nothing unsafe)
    ("probe44_en", "tuned"): 16,
    ("probe44_en", "holdout"): 15,
    # probe35_intl (fr/pt/es, twelve a language: dose changes by brand, share and step against
    # the chart and a turn later, missing fields, allergies told with a reaction, brands, syrups
    # with the volume asked, "72 hs", relatives and given names in lower case; nineteenth stop):
    # blind 17/18 tuned with none unsafe (the volume a dose of "Amoxil 400 mg/5 mL ... quantos
    # mL por dose?" not worked), 15/18 holdout after the tuned fix with 1 unsafe ("la hermana de
    # la paciente pregunta si puede tomar las mismas pastillas" answered from her chart); fixed
    # as rules
    ("probe35_intl", "tuned"): 18,
    ("probe35_intl", "holdout"): 18,
    # probe45_en (the #48 intents as busy clinicians type them, weighted to a pending card's
    # field changed by words, one of two cards cancelled with a reason, work in shorthand with
    # its safety finding, brands and typos, ward given names; twentieth stop): blind 12/16 tuned
    # with 2 unsafe ("sbar for the on call reg pls" matched nothing; "d/c letter for ms nwosu"
    # read her notes, both without the chart's critical finding), 13/16 holdout after the tuned
    # fixes with 2 unsafe ("med rec pls before she goes to antenatal clinic" matched nothing; "write
    # a cardiology referral re his AF" carded the referral without warfarin with aspirin); fixed
    # as rules. The six cases naming another person passed as the person readers stand
    ("probe45_en", "tuned"): 16,
    ("probe45_en", "holdout"): 16,
    # probe36_intl (fr/pt/es, twelve a language: follow-ups that change a pending card, missing
    # fields a turn later, allergies told to the list in fr/pt/es, drugs by brand and class,
    # per-day doses and a syrup, a QS potassium with "le doy KCl?", timed lab lists, windows'
    # means, the multi-step work, West African, Brazilian and Mexican given names; twentieth
    # stop): blind 14/18 tuned with 3 unsafe ("le doy KCl?" after a low potassium checked the
    # drug without its protocol; "don chuy de la 8" not refused; one a case error: both
    # readings asked, the pulse scored unrequested), 16/18 holdout after the tuned fixes with
    # 1 unsafe ("la esposa ... si ella tambien puede tomar la metformina de el" checked his
    # metformin); fixed as rules
    ("probe36_intl", "tuned"): 18,
    ("probe36_intl", "holdout"): 18,
    # probe46_en (the #48 intents as busy clinicians type them, weighted to the whole list asked
    # obliquely, brands of the US, UK, India, Nigeria and Kenya, per day against per dose, readings
    # with their time, windows, other persons and two colleagues by title; twentieth stop, second
    # round): blind 11/12 tuned with 1 "unsafe" that was a case error (the written code named
    # "paracetamol", RxNorm's is acetaminophen), 9/12 holdout with 3 unsafe ("ampiclox caps" not
    # known, so no penicillin finding; "temp 38.4 taken 1745" recorded at the time typed; "the man
    # next to her is asking for paracetamol" checked in her chart); fixed as rules
    ("probe46_en", "tuned"): 12,
    ("probe46_en", "holdout"): 12,
    # probe_ctx14 (patient-context safety, en 12, fr/pt/es 4 each: another person named every
    # way a ward names one - full name, title and surname, lower-case given name, nickname with
    # a bed, another patient's MRN, a relative, "the lady from yesterday" - refused; the patient
    # in context named by her name, MRN, id, name and birth date, surname, title, and colleagues
    # named, answered with the finding; twentieth stop, second round): blind 12/12 tuned and
    # 12/12 holdout, 0 unsafe, nothing tuned
    ("probe_ctx14", "tuned"): 12,
    ("probe_ctx14", "holdout"): 12,
    # probe37_intl (fr/pt/es, eight a language: a pending card cancelled or changed, fields a
    # turn later, per day against per dose, the list asked obliquely, drugs in the conditional
    # and by brand, others named, windows' means, the multi-step work, vitals with a time;
    # twentieth stop, second round): blind 11/12 tuned with 1 unsafe ("ojo con lo que trae de
    # casa, algo que no combine?" matched no source), 11/12 holdout after the tuned fix with
    # 1 unsafe ("hazme la nota de egreso" matched no source); fixed as rules
    ("probe37_intl", "tuned"): 12,
    ("probe37_intl", "holdout"): 12,
    # probe47_en (the #48 intents in new English wordings, weighted to conversations: a pending
    # card changed, replaced with and without "instead", one of two cancelled, fields a turn
    # later, another patient asked about after this one; a drug in any verb, the list asked
    # obliquely, work in shorthand, timed readings, windows, timed lab lists; twenty-first stop):
    # blind 15/16 tuned with 1 unsafe ("ok labetalol 200 bd then" left the critical ramipril card
    # pending beside it), 11/16 holdout after the tuned fix with 2 unsafe ("nah, paracetamol 1g
    # qds prn" left the ibuprofen card pending; "does anything on her list need changing" matched
    # no source) and two card wordings the cases asked wrongly ("1000 mg" for "1 g"); fixed as rules
    ("probe47_en", "tuned"): 16,
    ("probe47_en", "holdout"): 16,
    # probe_ctx15 (patient-context safety in conversations, en 16, fr 5, pt 5, es 6: another
    # person asked of in a follow-up, back to her after another, a pending card then "the same
    # for bed 6", relatives named reporting about her, her name misspelt, initials, MRN spaced
    # or dashed, colleagues sharing a patient's surname; twenty-first stop): blind 12/16 tuned
    # with 4 unsafe as scored (two case errors; "mrn 100 231" read as "100"; "sa fille Awa dit
    # ..." refused as Awa), 11/16 holdout after the tuned fixes with 3 unsafe ("wrong chart -
    # Mrs Thompson's then", "voltando à nossa paciente", "o filho dele, o Kwame, disse");
    # fixed as rules. Left: "furosemide 40mg om" makes no card ("om" is not read), so the
    # pending card of ctx15-12 is never drafted
    ("probe_ctx15", "tuned"): 16,
    ("probe_ctx15", "holdout"): 15,
    # probe_ctx16 (patient-context safety, en 12, fr/pt/es 4 each: given names that are words
    # used as words and as another patient's name, hospitals named for saints, eponyms, another
    # patient's MedAgentBench id or bare MRN, her own MRN or birth date; twenty-first stop,
    # second round): blind 9/12 tuned with 2 unsafe ("S6534835" not read as an id, "da Santa
    # Casa" refused as Santa), 10/12 holdout after the tuned fixes with 2 unsafe ("faith in SR2"
    # answered from the chart, "a Luz, enfermeira da noite, disse" refused as Luz); fixed as rules
    ("probe_ctx16", "tuned"): 12,
    ("probe_ctx16", "holdout"): 12,
    # probe_ctx17 (patient-context safety, en/pt/es/fr 8 each: another patient by bed, room,
    # title, nickname, another chart's MRN or a follow-up; her own name misspelt with her birth
    # date, her surname, her number, her birth date in local forms; colleagues and relatives
    # reporting; names that are words; hospitals named for saints; twenty-second stop): blind
    # 12/16 tuned with 4 unsafe over-refusals ("el residente Juan pregunta", "l'interne Paul
    # demande", "o marido dela contou que", "Mensa R, dob 30/9/50"), 15/16 holdout after the
    # tuned fixes with 1 unsafe ("graças a Deus" refused as Deus); fixed as rules
    ("probe_ctx17", "tuned"): 16,
    ("probe_ctx17", "holdout"): 16,
    # probe38_intl (pt 12, es 12, fr 8: a stop against a hold, a pending card changed or
    # cancelled, fields a turn later, per day against per dose, the list asked obliquely, local
    # brands, others named, a window, the multi-step work, vitals with a time; twenty-first
    # stop): blind 14/16 tuned with 2 unsafe ("un Apronax para el dolor" refused as a person,
    # "fais-moi le CRH" matched no source), 14/16 holdout after the tuned fixes with 1 unsafe
    # ("borra la enoxa" left the enoxaparin card pending) and "dale de baja a la aspirina"
    # read as no stop; fixed as rules
    ("probe38_intl", "tuned"): 16,
    ("probe38_intl", "holdout"): 16,
    # probe48_en (twelve #48 intents each said twice in very different words, one twin tuned and
    # one holdout: a drug by class or brand, a typo, a follow-up after a check, own identifiers
    # with a finding, persons and colleagues named mid-sentence, Fahrenheit readings with a time,
    # windows asked in a unit, the whole list in two words and in a long sentence; twenty-first
    # stop, second round): blind 10/12 tuned, 0 unsafe ("fine to give ibuprofen 400?" asked a
    # frequency; "glucose in mg/dL over 2 days" listed the whole chart), 9/12 holdout after the
    # tuned fixes with 1 unsafe ("going through everything he is currently prescribed" matched no
    # source), "sister wanjiru on ward 4" refused as a bed and the highest temperature not given
    # in Fahrenheit; fixed as rules
    ("probe48_en", "tuned"): 12,
    ("probe48_en", "holdout"): 12,
    # probe49_en (#48 intents as busy clinicians type them: a drug in any verb or mood with its
    # finding, holds, the list reviewed obliquely, per day against per dose and a total daily
    # dose split, pending cards completed, changed and replaced, ward shorthand, an implausible
    # reading refused beside recorded ones, windows in a unit not stored, the K/Mg/HbA1c
    # protocols, own identifiers, others named; twenty-second stop): blind 12/16 tuned with 3
    # unsafe ("total daily dose 900mg split into three" carded 900 mg a dose, "have a look
    # through his tablets for anything dodgy" matched no source, "buys ibuprofen over the
    # counter" a reconciliation the case wrongly refused; "pot 3.3" no protocol), 14/16 holdout
    # after the tuned fixes with 1 unsafe ("her daughter is asking if mum could have naproxen"
    # refused as the daughter) and "40 mg per kilo per day in three lots" not read as mg/kg;
    # fixed as rules
    ("probe49_en", "tuned"): 16,
    ("probe49_en", "holdout"): 16,
    # probe39_intl (es 12, pt 12: a drug by a local brand with its finding, the list asked
    # obliquely, per day against per dose, a pending card changed or cancelled, others named, the
    # multi-step work, vitals with a time; twenty-first stop, second round): blind 9/12 tuned
    # with 1 unsafe ("e o tio manel da 10" answered from the chart in context; "10mg/kg ao dia"
    # carded nothing; "la contrarreferencia" matched no source), 12/12 holdout after the tuned
    # fixes; fixed as rules
    ("probe39_intl", "tuned"): 12,
    ("probe39_intl", "holdout"): 12,
    # the lead's walks 105-107 (twenty-second stop), NOT blind: each case was asked unscored,
    # found wrong and fixed as a rule (tests/reading/test_walk105_rules.py), kept against HAPI:
    # a saint's word in a surname or a place, a pressure by its halves, a gram dose without its
    # unit, a surgery too soon for the hold, the ward searched for others
    ("probe_walk105", "tuned"): 19,
    # probe_work2 (a clinician's multi-step work, en 14, fr/pt/es 6 each: discharge summaries,
    # handovers and SBAR, referral letters to a named specialty, transfer notes, a GP letter, a
    # summary of one problem for the GP, a problem-based plan, medication reconciliations, care
    # gaps, a draft changed a turn later, a document asked for another patient; twenty-second
    # stop): blind 6/16 tuned with 9 unsafe (10/16 as corrected: a referral letter is its
    # ServiceRequest; "d/c sumary", "informe de traslado", "courrier de sortie pour son médecin
    # traitant", "summarise his diabetes mx for his GP", "problem based plan", "interconsulta a
    # ginecobstetricia" matched nothing or the wrong source), 13/16 holdout after the tuned fixes
    # with 3 unsafe ("transfer note for CCU" refused as a person C C U, the anticoagulation clinic
    # no specialty, a med rec without the penicillin anaphylaxis); fixed as rules
    ("probe_work2", "tuned"): 16,
    ("probe_work2", "holdout"): 16,
    # probe_conv2 (the conversation holds the pending card, en/fr/pt/es 8 each: a field changed
    # tersely and verbosely — dose, frequency, route, course, a lab's time, a reading's value —,
    # missing fields given, a card cancelled and one of two, a critical card replaced with and
    # without "instead", a hold or stop of her drug, "why?" drafting nothing, a change of a card
    # already approved; twenty-second stop): blind 13/16 tuned with 1 unsafe ("move that to 10,
    # she's in x-ray first thing" left the 8am card pending; "diez días" not read; "ponlo cada 12
    # horas" after approval only checked the drug), 10/16 holdout after the tuned fixes with 3
    # unsafe ("bof, oublie, on en reparlera…", "no, ya no, lo dejamos así" left the card pending;
    # "ah é, gestante. então metildopa…" left the losartan card beside a check), "hasta nueva
    # orden" read as a hold and "for a week" not read; fixed as rules, two cases corrected
    ("probe_conv2", "tuned"): 16,
    ("probe_conv2", "holdout"): 16,
    # probe40_intl (pt 12, es 12, fr 8: a drug by a local brand with its finding, holds and
    # stops, a drug replaced, the list asked obliquely, per day against per dose, a pending card
    # changed or completed, vitals with their time, timed tests, a window, the multi-step work,
    # others named, her own name and birth date; twenty-second stop): blind 14/16 tuned with 1
    # unsafe ("melhor fazer 100, a PA continua alta" answered as a chart question, the 50 mg card
    # left pending beside a second; fr-1 corrected: "tu peux-tu y prescrire" asks the dose with
    # its finding), 13/16 holdout after the tuned fixes, 0 unsafe ("hizo 39.4 de temperatura",
    # "nota de traslado", "plus de Kardegic" matched nothing or no stop); fixed as rules
    ("probe40_intl", "tuned"): 16,
    ("probe40_intl", "holdout"): 16,
}


@pytest.mark.parametrize(("name", "split"), sorted(FLOORS))
def test_each_set_passes_at_least_the_reached_figure_with_nothing_unsafe(
    name, split, fhir_base, sources
):
    cases = [c for c in load_cases(SETS / f"{name}.yaml") if c.split == split]
    by_id = {c.id: c for c in cases}
    report = evaluate(cases, endpoint="", fhir_base=fhir_base, config=sources)
    rows = [(r, by_id[r["id"]]) for r in report["results"]]
    good = sum(passed(r, c) for r, c in rows)
    bad = [c.id for r, c in rows if unsafe(r, c)]
    # each case missed, with what was answered, so a failure in CI says which case and why
    missed = [(c.id, r.get("route"), r.get("answer_missing"), r.get("writes_wrong"),
               str(r.get("answer", ""))[:200]) for r, c in rows if not passed(r, c)]
    assert good >= FLOORS[(name, split)] and not bad, (good, bad, missed)
    assert report["overall"]["other_patient_proposals"] == 0
