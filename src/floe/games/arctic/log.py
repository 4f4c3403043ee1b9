"""Arctic's game log: one line in words per action, told from what one viewer may know
(docs/arctic-rules.md §9).

``log_line(before, after, seen, actor, viewer)`` reads only the viewer's observations just before and
just after the action and the action as the viewer may know it (``seen``, from ``observe_action``, where a
hidden card is written ``?`` and a hidden chance outcome is None; read with ``actions.parse``). So the log
cannot name a card the viewer may not know: it never sees one.

The automatic consequences of an action (a power card taken, a forced token move, a shortfall turned into
penalty cards, the end being triggered) are public; they are read off the difference of the two
observations, so the log never re-implements the rules.
"""

from __future__ import annotations

from floe.games.arctic import actions as act
from floe.games.arctic.actions import ActionKind
from floe.games.arctic.cards import COMPANION, LANDSCAPE, MAIN, N_ANIMALS, animal_word, card_words, token_word
from floe.games.arctic.i18n import _, counted
from floe.games.arctic.observation import ArcticObservation
from floe.games.arctic.powers import power_words
from floe.games.arctic.state import EXTRA, OVER, PLACE, SETUP, SWAP_RIVER, Job
from floe.games.arctic.text import visible_top

__all__ = ["log_line"]

# Decisions that move a token by choice (other token moves are forced, and told as consequences).
_TOKEN_KINDS = frozenset((ActionKind.MOVE, ActionKind.EXTRA))


class _Who:
    """A seat as the subject or object of a sentence, relative to the viewer ("you" or "P2"). Every sentence
    has two message ids, one for "you" and one for another seat (``say``), so each language words both."""

    def __init__(self, seat: int, viewer: int | None) -> None:
        self.you = seat == viewer
        self.name = act.seat_name(seat)

    def say(self, you: str, other: str, **values: object) -> str:
        """``you`` (already translated) if this seat is the viewer, else ``other`` with ``%(who)s``."""
        return you % values if self.you else other % {"who": self.name, **values}

    def obj(self) -> str:
        """This seat as an object: ``you`` or ``P2``."""
        return _("you") if self.you else self.name


def _pos(position: int) -> str:
    """A token position as its landscape value."""
    return str(LANDSCAPE[position])


def log_line(
    before: ArcticObservation,
    after: ArcticObservation,
    seen: str | None,
    actor: int | None,
    viewer: int | None,
) -> str | None:
    """One line in words on an action, told as ``viewer`` (a seat, or None for a spectator) may know it.

    ``before``/``after`` are the viewer's observations around the action, ``seen`` the action as the viewer
    may know it, ``actor`` the seat that chose it (None for a chance outcome). None when there is nothing
    the viewer may learn (another player's hidden card arriving, most setup events).
    """
    if actor is None:
        head = _chance_line(before, seen, viewer)
    else:
        head = _decision_line(before, seen or "", actor, viewer)
    parts = [head] if head else []
    parts += _consequences(before, after, seen, actor, viewer)
    if not parts:
        return None
    return ". ".join(parts) + "."


def _decision_line(obs: ArcticObservation, seen: str, actor: int, viewer: int | None) -> str | None:
    """A player's decision in words; a hidden card is named only where ``seen`` names it."""
    s = obs.scalars
    p = _Who(actor, viewer)
    step = s["step"]
    d = act.parse(seen)
    k = ActionKind
    kind = d.kind
    card = card_words(d.card) if d.card >= 0 else None
    blind = obs.config.penalties == "hidden_blind"  # nobody looks: Polar bear cards are taken unseen
    if kind is k.STOP:
        if step == PLACE:
            return p.say(
                _("You stop placing cards (%(n)s placed)"),
                _("%(who)s stops placing cards (%(n)s placed)"),
                n=s["placed"],
            )
        return p.say(
            _("You stop drawing (%(n)s drawn)"), _("%(who)s stops drawing (%(n)s drawn)"), n=s["drawn"]
        )
    if kind is k.PASS:
        if step == EXTRA:
            return p.say(_("You don't use the Walrus power"), _("%(who)s doesn't use the Walrus power"))
        return p.say(_("You give no penalty card away"), _("%(who)s gives no penalty card away"))
    if kind is k.TAKE_BACK:
        # The visible card is face-up and public, and it is announced as it goes back
        # (docs/arctic-rules.md §9).
        top = visible_top(obs.piles[actor])
        return p.say(
            _("You take %(card)s back into your hand (Puffin)"),
            _("%(who)s takes %(card)s back into their hand (Puffin)"),
            card=card_words(top),
        )
    if kind is k.DECK:
        if p.you:
            return None  # the card drawn is told next, in one line (the chance line)
        return _("%(who)s draws the top card of the deck (Orca)") % {"who": p.name}
    if kind is k.LOOK:
        return p.say(
            _("You look at your face-down penalty cards (Polar bear)"),
            _("%(who)s looks at their face-down penalty cards (Polar bear)"),
        )
    if kind is k.MOVE:
        top = visible_top(obs.piles[actor])
        main, comp = MAIN[top], COMPANION[top]
        forward = d.direction == act.RIGHT
        m, c = obs.tokens[main], obs.tokens[comp]
        values = {
            "main": token_word(main),
            "companion": token_word(comp),
            "main_move": f"{_pos(m)} → {_pos(m + d.direction)}",
            "companion_move": f"{_pos(c)} → {_pos(c - d.direction)}",
        }
        if forward:
            return p.say(
                _(
                    "You move the %(main)s token forward (%(main_move)s)"
                    " and the %(companion)s token back (%(companion_move)s)"
                ),
                _(
                    "%(who)s moves the %(main)s token forward (%(main_move)s)"
                    " and the %(companion)s token back (%(companion_move)s)"
                ),
                **values,
            )
        return p.say(
            _(
                "You move the %(main)s token back (%(main_move)s)"
                " and the %(companion)s token forward (%(companion_move)s)"
            ),
            _(
                "%(who)s moves the %(main)s token back (%(main_move)s)"
                " and the %(companion)s token forward (%(companion_move)s)"
            ),
            **values,
        )
    if kind is k.EXTRA:
        a = s["walrus_token"]
        t = obs.tokens[a]
        values = {"animal": token_word(a), "move": f"{_pos(t)} → {_pos(t + d.direction)}"}
        if d.direction == act.RIGHT:
            return p.say(
                _("You use the Walrus power: the %(animal)s token moves one more step forward (%(move)s)"),
                _(
                    "%(who)s uses the Walrus power:"
                    " the %(animal)s token moves one more step forward (%(move)s)"
                ),
                **values,
            )
        return p.say(
            _("You use the Walrus power: the %(animal)s token moves one more step back (%(move)s)"),
            _("%(who)s uses the Walrus power: the %(animal)s token moves one more step back (%(move)s)"),
            **values,
        )
    if kind is k.GIVE or kind is k.GIVE_BLIND:
        q = _Who(d.seat, viewer)
        if card is not None and p.you:
            return _("You give %(card)s from your penalty zone to %(whom)s (Polar bear)") % {
                "card": card,
                "whom": q.obj(),
            }
        if card is not None:
            return _("%(who)s gives you %(card)s from their penalty zone (Polar bear)") % {
                "who": p.name,
                "card": card,
            }
        if blind:
            return p.say(
                _("You give an unseen penalty card to %(whom)s (Polar bear)"),
                _("%(who)s gives an unseen penalty card to %(whom)s (Polar bear)"),
                whom=q.obj(),
            )
        return p.say(
            _("You give a penalty card to %(whom)s (Polar bear)"),
            _("%(who)s gives a penalty card to %(whom)s (Polar bear)"),
            whom=q.obj(),
        )
    if (kind is k.PENALTY or kind is k.PENALTY_BLIND) and blind:
        return p.say(
            _("You draw an unseen card from your penalty zone (Polar bear)"),
            _("%(who)s draws an unseen card from their penalty zone (Polar bear)"),
        )
    what = card or _("a card")
    if kind is k.PLACE:
        return p.say(
            _("You place %(card)s on your pile"), _("%(who)s places %(card)s on their pile"), card=what
        )
    if kind is k.UNDER:
        return p.say(
            _("You place %(card)s at the bottom of your pile (Fox)"),
            _("%(who)s places %(card)s at the bottom of their pile (Fox)"),
            card=what,
        )
    if kind is k.FACEDOWN:
        return p.say(
            _("You place %(card)s face-down under your visible card (Fox)"),
            _("%(who)s places %(card)s face-down under their visible card (Fox)"),
            card=what,
        )
    if kind is k.SWAP:
        return p.say(
            _("You offer %(card)s from your hand for a river card (Puffin swap)"),
            _("%(who)s offers %(card)s from their hand for a river card (Puffin swap)"),
            card=what,
        )
    if kind is k.RIVER:
        if step == SWAP_RIVER:
            return p.say(
                _("You swap %(offered)s for %(card)s from the river (Puffin)"),
                _("%(who)s swaps %(offered)s for %(card)s from the river (Puffin)"),
                offered=card_words(s["swap_card"]),
                card=what,
            )
        return p.say(
            _("You draw %(card)s from the river"), _("%(who)s draws %(card)s from the river"), card=what
        )
    if kind is k.PENALTY or kind is k.PENALTY_BLIND:
        # Seen by another seat, the owner's look at its own penalty zone reads "penalty ?".
        return p.say(
            _("You take %(card)s from your penalty zone into your hand (Polar bear)"),
            _("%(who)s takes %(card)s from their penalty zone into their hand (Polar bear)"),
            card=what,
        )
    if kind is k.DISCARD:
        if card is not None:  # the card is named only to its owner, who knows it
            return _("You discard %(card)s into your penalty zone") % {"card": card}
        return p.say(
            _("You discard a card face-down into your penalty zone"),
            _("%(who)s discards a card face-down into their penalty zone"),
        )
    return p.say(_("You play %(action)s"), _("%(who)s plays %(action)s"), action=seen)


def _chance_line(obs: ArcticObservation, seen: str | None, viewer: int | None) -> str | None:
    """A chance outcome in words; None where the viewer learns nothing of it."""
    kind, a, _unused = obs.pending[0]
    if seen is None:
        if kind == Job.PENALTY:
            return _Who(a, viewer).say(
                _("You take a penalty card from the deck (face-down)"),
                _("%(who)s takes a penalty card from the deck (face-down)"),
            )
        return None  # a card dealt to another hand, an unseen penalty card, another totem
    d = act.parse(seen)
    card = card_words(d.card) if d.card >= 0 else "?"
    if kind == Job.RIVER:
        return _("%(card)s is added to the river") % {"card": card}
    if kind == Job.HAND:
        if obs.scalars["step"] == SETUP:
            return _("You are dealt %(card)s") % {"card": card}
        return _("You draw %(card)s from the top of the deck (Orca)") % {"card": card}
    if kind == Job.PENALTY:
        return _("You take %(card)s from the deck into your penalty zone") % {"card": card}
    if kind == Job.BLIND_DRAW:
        return _("You get %(card)s") % {"card": card}
    if kind == Job.DECKS:
        return _("Decks %(decks)s are in play") % {"decks": act.decks_mask_text(d.decks)}
    if kind == Job.SIDE and d.power is not None:
        return _("The %(animal)s power in play: %(effect)s") % {
            "animal": animal_word(a),
            "effect": power_words(d.power),
        }
    if kind == Job.TOTEM:
        return _("Your totem is the %(animal)s") % {"animal": animal_word(d.animal)}
    if kind == Job.FIRST:
        return _Who(d.seat, viewer).say(_("You play first"), _("%(who)s plays first"))
    return None  # Job.BLIND_GIVE: nobody may look at the card


def _consequences(
    before: ArcticObservation,
    after: ArcticObservation,
    seen: str | None,
    actor: int | None,
    viewer: int | None,
) -> list[str]:
    """The public, automatic effects of an action: all read off the difference of the two observations."""
    out: list[str] = []
    b, a_ = before.scalars, after.scalars
    if actor is not None:
        short = sum(1 for job in after.pending if job[0] == Job.PENALTY)
        if short and not any(job[0] == Job.PENALTY for job in before.pending):
            who = _Who(b["turn_player"], viewer)
            cards = counted(short, "card", "cards")
            out.append(
                who.say(
                    _("You are %(cards)s short and take %(cards)s as penalties"),
                    _("%(who)s is %(cards)s short and takes %(cards)s as penalties"),
                    cards=cards,
                )
            )
    for a in range(N_ANIMALS):
        if after.holder[a] != before.holder[a] and after.holder[a] >= 0:
            who = _Who(after.holder[a], viewer)
            values = {"animal": animal_word(a)}  # which power it is, the table shows
            if before.holder[a] < 0:
                out.append(
                    who.say(
                        _("You take the %(animal)s power card"),
                        _("%(who)s takes the %(animal)s power card"),
                        **values,
                    )
                )
            else:
                values["from"] = _Who(before.holder[a], viewer).obj()
                out.append(
                    who.say(
                        _("You take the %(animal)s power card from %(from)s"),
                        _("%(who)s takes the %(animal)s power card from %(from)s"),
                        **values,
                    )
                )
    token_move = seen is not None and actor is not None and act.parse(seen).kind in _TOKEN_KINDS
    if not token_move:
        moved = [
            f"{animal_word(a)} {_pos(before.tokens[a])} → {_pos(after.tokens[a])}"
            for a in range(N_ANIMALS)
            if after.tokens[a] != before.tokens[a]
        ]
        if moved:
            out.append(_("Forced token move: %(moves)s") % {"moves": ", ".join(moved)})
    if a_["end_triggered"] and not b["end_triggered"] and b["step"] != SETUP:
        out.append(
            _("The main deck is empty: the reserve becomes the deck and this is the last normal round")
        )
    if a_["final_round"] and not b["final_round"]:
        out.append(_("Final round: every player plays steps A and B only"))
    if a_["step"] == OVER and b["step"] != OVER:
        out.append(_("The game is over"))
    return out
