"""The RisiKo! mechanics several games share, as small components a game composes (its class
lists them as bases, over the kernel). Each owns its state, its actions' handlers, its legal
families and its checks, and names the hooks a game defines for it; every other member is
final. Classic RisiKo! composes them all (variants/classic/game.py), S.P.Q.RisiKo! and
RisiKo! Più most of them.

- `territories`: each territory's owner and armies, in two lists; reading spaces of actions.
- `turns`: the first player drawn, play clockwise, a turn's end and the next one, the round
  and time limits; ending a turn (EndTurn) and the clock's ExpireTime.
- `placement`: the setup's quota a turn and a turn's reinforcements (PlaceArmies); a seat
  that leaves in the setup.
- `attack`: pairwise dice attacks, one roll (Attack) or until a stop (AttackUntil), conquest,
  occupation (Occupy), elimination; the protected rounds and the tournament's dice.
- `defence`: the defender's declared dice, a prompt (Defend).
- `cards`: hands, the deck and its discards; trading sets (TradeCards) and the card a
  conquest earns.
- `objectives`: secret objectives, their deal, fallbacks and completion.
- `strategic`: the strategic move (StrategicMove) and the garrison it leaves.
- `options`: what a game without some of the mechanics' options plays by (`played_off`).

Each mechanic with options declares them beside it (`AttackOptions`, `DefenceOptions`,
`GarrisonOptions`, `ObjectiveOptions`) and reads them itself when the game's options class
includes them; a game without them plays those rules off.
"""
