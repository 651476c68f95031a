#!/usr/bin/env python3
"""Generates cards_data.c from quarriors-data.json (the only source of die
faces, costs and glory). Run from the repository root:

    python3 rules/quarriors/gen_cards.py ../shared/rules/quarriors-data.json \
        > rules/quarriors/cards_data.c

Dice whose faces are unknown (faces: null) are left out, and so are the
cards that use them, except where cards.c documents a DEFAULT (the Squire
die and the quest dice, whose faces are written in DEFAULTS below).
"""
import json
import sys

# DEFAULT (no source has these faces): the Squire is a level 0 creature
# (SEED003); three quiddity faces and three level-0 creature faces.
SQUIRE_FACES = [{"q": 1}, {"q": 1}, {"q": 1},
                {"creature": {"level": 0, "attack": 1, "defense": 1, "burst": 0}},
                {"creature": {"level": 0, "attack": 1, "defense": 1, "burst": 0}},
                {"creature": {"level": 0, "attack": 1, "defense": 2, "burst": 0}}]

# Card powers the engine implements: card id -> QQ_POW_ constant.
POWERS = {
    "assistant": "QQ_POW_ASSISTANT_REROLL",
    "portal": "QQ_POW_PORTAL",
    "squire": "QQ_POW_SQUIRE",
    "death_cantrip": "QQ_POW_DEATH_CANTRIP",
    "death_charm": "QQ_POW_DEATH_CHARM",
    "death_incantation": "QQ_POW_DEATH_INCANTATION",
    "growth_cantrip": "QQ_POW_GROWTH_CANTRIP",
    "growth_charm": "QQ_POW_GROWTH_CHARM",
    "growth_spell": "QQ_POW_GROWTH_SPELL",
    "life_cantrip": "QQ_POW_LIFE_CANTRIP",
    "shaping_spell": "QQ_POW_SHAPING_SPELL",
    "victory_cantrip": "QQ_POW_VICTORY_CANTRIP",
    "victory_incantation": "QQ_POW_VICTORY_INCANTATION",
    "defender_of_the_pale": "QQ_POW_DEFENDER_PALE",
    "mighty_defender_of_the_pale": "QQ_POW_MIGHTY_DEFENDER_PALE",
    "devotee_of_the_holy_query": "QQ_POW_DEVOTEE",
    "mighty_devotee_of_the_holy_query": "QQ_POW_MIGHTY_DEVOTEE",
    "primordial_ooze": "QQ_POW_OOZE",
    "mighty_primordial_ooze": "QQ_POW_MIGHTY_OOZE",
    "quake_dragon": "QQ_POW_QUAKE_DRAGON",
    "strong_quake_dragon": "QQ_POW_STRONG_QUAKE_DRAGON",
    "mighty_quake_dragon": "QQ_POW_MIGHTY_QUAKE_DRAGON",
    "questing_wizard": "QQ_POW_QUESTING_WIZARD",
    "mighty_questing_wizard": "QQ_POW_MIGHTY_QUESTING_WIZARD",
    "scavenging_goblin": "QQ_POW_SCAVENGING_GOBLIN",
    "strong_scavenging_goblin": "QQ_POW_STRONG_SCAVENGING_GOBLIN",
    "warrior_of_the_quay": "QQ_POW_WARRIOR_QUAY",
    "strong_warrior_of_the_quay": "QQ_POW_STRONG_WARRIOR_QUAY",
    "witching_hag": "QQ_POW_WITCHING_HAG",
    "mighty_witching_hag": "QQ_POW_MIGHTY_WITCHING_HAG",
    "life_charm": "QQ_POW_LIFE_CHARM",
    "life_incantation": "QQ_POW_LIFE_INCANTATION",
    "life_spell": "QQ_POW_LIFE_SPELL",
    "shaping_cantrip": "QQ_POW_SHAPING_CANTRIP",
    "death_spell": "QQ_POW_DEATH_SPELL",
    "growth_incantation": "QQ_POW_GROWTH_INCANTATION",
    "shaping_charm": "QQ_POW_SHAPING_CHARM",
    "shaping_incantation": "QQ_POW_SHAPING_INCANTATION",
    "victory_charm": "QQ_POW_VICTORY_CHARM",
    "victory_spell": "QQ_POW_VICTORY_SPELL",
    "deathdealer": "QQ_POW_DEATHDEALER",
    "strong_deathdealer": "QQ_POW_STRONG_DEATHDEALER",
    "mighty_deathdealer": "QQ_POW_MIGHTY_DEATHDEALER",
    "strong_defender_of_the_pale": "QQ_POW_STRONG_DEFENDER_PALE",
    "strong_devotee_of_the_holy_query": "QQ_POW_STRONG_DEVOTEE",
    "ghostly_spirit": "QQ_POW_GHOSTLY_SPIRIT",
    "strong_ghostly_spirit": "QQ_POW_STRONG_GHOSTLY_SPIRIT",
    "mighty_ghostly_spirit": "QQ_POW_MIGHTY_GHOSTLY_SPIRIT",
    "strong_primordial_ooze": "QQ_POW_STRONG_OOZE",
    "strong_questing_wizard": "QQ_POW_STRONG_QUESTING_WIZARD",
    "mighty_scavenging_goblin": "QQ_POW_MIGHTY_SCAVENGING_GOBLIN",
    "mighty_warrior_of_the_quay": "QQ_POW_MIGHTY_WARRIOR_QUAY",
    "strong_witching_hag": "QQ_POW_STRONG_WITCHING_HAG",
}

KIND = {"basic": "QQ_KIND_BASIC", "spell": "QQ_KIND_SPELL",
        "creature": "QQ_KIND_CREATURE", "quest": "QQ_KIND_QUEST"}
TIMING = {None: "QQ_TIME_NONE", "immediate": "QQ_TIME_IMMEDIATE",
          "standard": "QQ_TIME_STANDARD", "attach": "QQ_TIME_ATTACH",
          "reaction": "QQ_TIME_REACTION"}
SET = {"base": "QQ_SET_BASE", "quarmageddon": "QQ_SET_QUARMAGEDDON",
       "quartifacts": "QQ_SET_QUARTIFACTS"}


def face_c(f):
    q = f.get("q", 0)
    draw = f.get("draw_roll", 0)
    burst = f.get("burst", 0)
    flags = []
    level = attack = defense = 0
    if "either" in f:
        # Quake Dragon: 3 quiddity OR re-roll (owner's choice)
        q = [x for x in f["either"] if "q" in x][0]["q"]
        flags.append("QQ_FACE_EITHER_REROLL")
    if f.get("reroll"):
        flags.append("QQ_FACE_REROLL")
    if f.get("spell"):
        flags.append("QQ_FACE_SPELL")
    if "creature" in f:
        c = f["creature"]
        flags.append("QQ_FACE_CREATURE")
        level = c["level"]
        burst = c.get("burst", 0)
        attack = c["attack"] if c["attack"] is not None else 0
        defense = c["defense"] if c["defense"] is not None else 0
        if c.get("stats_from_card"):
            flags.append("QQ_FACE_STATS_FROM_CARD")
    return "{%d, %d, %d, %d, %d, %d, %s}" % (
        q, draw, burst, level, attack, defense, " | ".join(flags) or "0")


def cname(s):
    return json.dumps(s)


def main():
    data = json.load(open(sys.argv[1]))
    dice = []
    for d in data["dice"]:
        if d["kind"] == "quest":
            continue  # quest dice: DEFAULT faces in cards.c
        faces = d["faces"]
        if d["id"] == "die_squire":
            faces = SQUIRE_FACES
        if faces is None:
            continue
        dice.append((d, faces))
    index = {d["id"]: i for i, (d, _) in enumerate(dice)}
    out = []
    out.append("/* cards_data.c: GENERATED by gen_cards.py from quarriors-data.json;")
    out.append(" * do not edit by hand (see README.md, \"Data\"). */")
    out.append('#include "qq_internal.h"\n')
    out.append("const qq_die_def qq_dice[] = {")
    for d, faces in dice:
        out.append("    {%s, %s, %s, {%s}}," % (
            cname(d["id"]), cname(d["name"]), KIND[d["kind"]],
            ", ".join(face_c(f) for f in faces)))
    out.append("};")
    out.append("const int qq_dice_count = %d;\n" % len(dice))
    out.append("const qq_card_def qq_cards[] = {")
    ncards = 0
    for c in data["cards"]:
        if c["kind"] == "quest" or c["die"] not in index:
            continue
        level = c.get("level", -1)
        out.append("    {%s, %s, %s, %s, %s, %s, %d, %d, %d, %s}," % (
            cname(c["id"]), cname(c["name"]), cname(c["class"]),
            KIND[c["kind"]], SET[c["set"]], TIMING[c.get("timing")],
            c["cost"], c["glory"], index[c["die"]],
            POWERS.get(c["id"], "QQ_POW_NONE")))
        ncards += 1
    out.append("};")
    out.append("const int qq_cards_count = %d;\n" % ncards)
    out.append("const qq_quest_def qq_quests[] = {")
    for q in data["quests"]["types"]:
        versions = [v for v in q["versions"] if "expedition" not in v]
        names = [n for n in q["known_quartifacts"]]
        out.append("    {%s, %s, %d, %d, {%s}, %d, {%s}, %d}," % (
            cname(q["id"]), cname(q["name"]), q["level"], q["glory"],
            ", ".join(cname(v) for v in versions), len(versions),
            ", ".join(cname(n) for n in names), len(names)))
    out.append("};")
    out.append("const int qq_quests_count = %d;\n" % len(data["quests"]["types"]))
    goals = data["components"]["base"]["glory_goals"]
    qgoals = data["quests"]["glory_goals_with_quests"]
    out.append("/* glory goals by seat count (index 2..4), base and with quests */")
    out.append("const int qq_goal_base[5] = {0, 0, %d, %d, %d};" % (
        goals["2"], goals["3"], goals["4"]))
    out.append("const int qq_goal_quests[5] = {0, 0, %d, %d, %d};" % (
        qgoals["2"], qgoals["3"], qgoals["4"]))
    use = data["quests"]["players_use"]
    qi = {q["id"]: i for i, q in enumerate(data["quests"]["types"])}
    out.append("/* quest types in use by seat count: bit i = qq_quests[i] */")
    out.append("const unsigned qq_quests_in_use[5] = {0, 0, %s};" % ", ".join(
        "0x%x" % sum(1 << qi[t] for t in use[str(n)]) for n in (2, 3, 4)))
    sb = data["components"]["base"]["starting_bag_per_player"]
    st = data["components"]["base"]["dice_on_cards_at_start"]
    out.append("const qq_counts_def qq_counts = {%d, %d, %d, %d, %d, %d, %d};" % (
        sb["basic_quiddity"], sb["assistant"], st["basic_quiddity"],
        st["assistant"], st["portal"], st["spell_or_creature"],
        data["components"]["quartifacts"]["dice_split"]["squire"]))
    print("\n".join(out))


main()
