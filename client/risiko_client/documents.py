"""The GraphQL documents the client sends (`RisikoClient` in risiko_client.api), as texts:
the server's trusted documents are these (api/trusted.py reads them from risiko_client.api).
The account's are in risiko_client.accounts."""

GAME_FIELDS = """
fragment GameFields on Game {
  id variant version status phase round currentPlayer seatToAct viewerSeat armiesToPlace
  neutralColours pendingTriremes pendingPowerCentres
  players {
    seat name colour territories armies cards eliminated resigned victoryPoints triremes
    account { name bot }
  }
  territories { id owner armies neutral triremes { seat count } controlledBy powerCentre }
  hand { id symbol territory }
  objective { id text territories }
  outcome { winner reason ranking { rank seat points } }
  legalActions {
    __typename
    ... on LegalPlaceArmies { territories minArmies maxArmies input }
    ... on LegalTradeCards { cards armies input }
    ... on LegalAttack { source target minDice maxDice input }
    ... on LegalAttackUntil { source target minDice minStopAt maxStopAt input }
    ... on LegalDefend { minDice maxDice input }
    ... on LegalOccupy { source target minArmies maxArmies input }
    ... on LegalStrategicMove { source target minArmies maxArmies input }
    ... on LegalEndTurn { input }
    ... on LegalClaimProvince { provinces input }
    ... on LegalPlaceNeutral { provinces colours input }
    ... on LegalPlacePowerCentre { provinces input }
    ... on LegalPlaceTrireme { seas input }
    ... on LegalBuildTrireme { province sea minTriremes maxTriremes input }
    ... on LegalDisbandTrireme { sea provinces input }
    ... on LegalMoveFleet { source target minTriremes maxTriremes input }
    ... on LegalNavalBattle { sea opponent minDice maxDice ongoing input }
    ... on LegalSeaAttack { source target sea minLegionaries maxLegionaries input }
    ... on LegalChooseFortress { territories input }
    ... on LegalClaimTerritory { territories input }
    ... on LegalWriteHiddenTerritory { territories input }
    ... on LegalRevealHiddenArmies { territory armies input }
    ... on LegalPlayRinforzi { cards armies input }
    ... on LegalPlaySpy { cards players input }
    ... on LegalDiscardSpiedCard { player cards input }
    ... on LegalPlayDiplomat { cards players input }
    ... on LegalPlayGeneral { cards sources targets input }
    ... on LegalAdmiralAttack { cards source targets maxArmies input }
    ... on LegalStandingOrders { marshal spy input }
    ... on LegalPlaceFlag { territories input }
    ... on LegalReceiveCards { discards input }
    ... on LegalProduce { unit spaces minCount maxCount input }
    ... on LegalPlayCard { card targets against input }
    ... on LegalMoveUnits { unit source targets minCount maxCount input }
    ... on LegalAmphibiousMove { source sea targets minCount maxCount input }
    ... on LegalTorpedo { sea targets minSubmarines maxSubmarines input }
    ... on LegalBattle { territory cards required input }
    ... on LegalBattleCards { territory cards input }
  }
}
"""
EVENT_FIELDS = "seq version type private data"
ERRORS = "userErrors { code message field }"

CREATE = f"""mutation($input: CreateGameInput!) {{
  createGame(input: $input) {{ game {{ id }} {ERRORS} }}
}}"""
JOIN = f"""mutation($input: JoinGameInput!) {{
  joinGame(input: $input) {{ seat token clientSeedAccepted {ERRORS} }}
}}"""
START = f"""mutation($input: GameInput!) {{
  startGame(input: $input) {{ clientSeedAccepted {ERRORS} }}
}}"""
SEED_CHOSEN = "query($id: ID!) { game(id: $id) { seedChosen } }"
RANDOMNESS = """query($id: ID!) { game(id: $id) {
  id variant status viewerSeat
  randomness {
    commitment seedChosen derived startCommitment secret derivedSeed
    contributions { seat given value byServer atStart }
  }
} }"""
LOG_PAGE = """query($id: ID!, $after: Int!) { game(id: $id) {
  actionLog(after: $after, first: 100) { entries { seq kind seat payload } hasMore }
} }"""
EVENTS_PAGE = """query($id: ID!, $after: Int!) { game(id: $id) {
  events(after: $after, first: 100) { events { seq version type private data } hasMore }
} }"""
LEAVE = f"""mutation($input: GameInput!) {{ leaveGame(input: $input) {{ {ERRORS} }} }}"""
ADD_BOT = f"""mutation($input: AddBotInput!) {{ addBot(input: $input) {{ seat {ERRORS} }} }}"""
SEAT_EVENTS = """subscription($tokens: [String!]) {
  seatEvents(tokens: $tokens) { gameId seat kind version deadline }
}"""
GAME = "query($id: ID!) { game(id: $id) { ...GameFields } }" + GAME_FIELDS
TURN = "query($id: ID!) { game(id: $id) { version status seatToAct } }"
SUBMIT = f"""mutation($input: SubmitActionInput!) {{
  submitAction(input: $input) {{
    version events {{ {EVENT_FIELDS} }} {ERRORS} game {{ ...GameFields }}
  }}
}}{GAME_FIELDS}"""
ODDS = """query($a: Int!, $d: Int!, $ad: Int!, $dd: Int!, $tie: TieRule!, $ab: Int!, $db: Int!,
         $stop: Int!, $naval: Boolean!) {
  battleOdds(attackers: $a, defenders: $d, attackerDice: $ad, defenderDice: $dd, tieRule: $tie,
             attackerBonus: $ab, defenderBonus: $db, stopAt: $stop, naval: $naval) {
    attackers defenders conquestProbability attackerSurvivors defenderSurvivors
    expectedAttackerLosses expectedDefenderLosses
  }
}"""
BOARD = """{ variants { name board {
  id name territories { id name region kind } regions { id name bonus territories }
  edges { a b kind }
} } }"""
EVENTS = f"""subscription($id: ID!, $after: Int!) {{
  gameEvents(gameId: $id, after: $after) {{ {EVENT_FIELDS} }}
}}"""
