-- Purpose: card value by stratum (player count x faction), for the faction-adjusted
--          (Mantel-Haenszel) difference: win rate of players who acquired the card versus
--          players who did not, within each stratum.
-- Parameters: $max_game - only games with game_id < $max_game are used;
--             $kinds - the event kinds that count as acquiring (or playing) a card.
-- Reads views: games, players, events.
-- Returns: card, n_players, faction, players_with, wins_with, players_without, wins_without.
WITH seated AS (
    SELECT p.game_id, p.seat, p.faction, g.n_players, p.win
    FROM players AS p
    JOIN games AS g USING (game_id)
    WHERE p.game_id < $max_game
),
strata AS (
    SELECT n_players, faction, count(*) AS players, sum(win) AS wins
    FROM seated
    GROUP BY n_players, faction
),
holders AS (
    SELECT DISTINCT game_id, seat, card
    FROM events
    WHERE game_id < $max_game AND list_contains($kinds, CAST(kind AS VARCHAR))
),
with_card AS (
    SELECT h.card, s.n_players, s.faction, count(*) AS players_with, sum(s.win) AS wins_with
    FROM holders AS h
    JOIN seated AS s USING (game_id, seat)
    GROUP BY h.card, s.n_players, s.faction
),
cards AS (
    SELECT DISTINCT card FROM with_card
)
SELECT
    c.card,
    t.n_players::BIGINT                                           AS n_players,
    t.faction,
    coalesce(w.players_with, 0)::BIGINT                           AS players_with,
    coalesce(w.wins_with, 0)::DOUBLE                              AS wins_with,
    (t.players - coalesce(w.players_with, 0))::BIGINT             AS players_without,
    (t.wins - coalesce(w.wins_with, 0))::DOUBLE                   AS wins_without
FROM cards AS c
CROSS JOIN strata AS t
LEFT JOIN with_card AS w ON w.card = c.card AND w.n_players = t.n_players AND w.faction = t.faction
ORDER BY c.card, t.n_players, t.faction;
