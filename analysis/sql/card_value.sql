-- Purpose: card value v1 (the "in-game win rate when drawn" idea, applied to plays).
--          For each card and player count: how many players/games played it, the win
--          rate of players who played it versus players who did not, both taken in games
--          of that same player count, and how often it is played per game.
-- Parameters: $max_game - only games with game_id < $max_game are used (a large run is
--             valued on its first games: the per-player grouping costs about 0.3 s per
--             100,000 games, and game ids cycle through the player counts, so the subset
--             is balanced).
--             $kinds - the event kinds that count as playing a card (normally ['play'];
--             a game may add more in its manifest's value_kinds, e.g. adjuncts).
-- Reads views: games, players; card_holdings (card_holdings.sql, made by runfolder.query).
-- Returns: n_players, card, games_with, players_with, wins_with, rate_with,
--          players_without, wins_without, rate_without, plays, plays_per_game, game_share.
WITH seated AS (
    SELECT
        p.game_id,
        p.seat,
        g.n_players,
        p.win
    FROM players AS p
    JOIN games AS g USING (game_id)
    WHERE p.game_id < $max_game
),
totals AS (
    SELECT
        n_players,
        count(*)                 AS player_games,
        sum(win)                 AS total_wins,
        count(DISTINCT game_id)  AS games
    FROM seated
    GROUP BY n_players
),
plays AS (
    SELECT game_id, seat, card, n_events AS plays
    FROM card_holdings
),
holders AS (
    SELECT
        s.n_players,
        c.card,
        count(*)                   AS players_with,
        count(DISTINCT c.game_id)  AS games_with,
        sum(s.win)                 AS wins_with,
        sum(c.plays)               AS plays
    FROM plays AS c
    JOIN seated AS s USING (game_id, seat)
    GROUP BY s.n_players, c.card
)
SELECT
    h.n_players::BIGINT                                         AS n_players,
    h.card,
    h.games_with::BIGINT                                        AS games_with,
    h.players_with::BIGINT                                      AS players_with,
    h.wins_with::DOUBLE                                         AS wins_with,
    h.wins_with / h.players_with                                AS rate_with,
    (t.player_games - h.players_with)::BIGINT                   AS players_without,
    (t.total_wins - h.wins_with)::DOUBLE                        AS wins_without,
    (t.total_wins - h.wins_with) / nullif(t.player_games - h.players_with, 0) AS rate_without,
    h.plays::BIGINT                                             AS plays,
    h.plays / t.games                                           AS plays_per_game,
    h.games_with / t.games                                      AS game_share
FROM holders AS h
JOIN totals AS t USING (n_players)
ORDER BY n_players, card;
