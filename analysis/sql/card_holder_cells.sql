-- Purpose: per card, game, player count and faction: how many players acquired (or played)
--          the card and their wins. With card_game_cells.sql, the per-game terms of card
--          value's game-clustered variance (analysis/clustered.py).
--          Card and faction come back as card_code and faction_code, their 0-based positions
--          in $card_names and $faction_names, decoded by runfolder.query_coded: millions of
--          rows of short integers fetch and sort several times faster than strings.
-- Parameters: $max_game - only games with game_id < $max_game are used;
--             $kinds - the event kinds that count as acquiring (or playing) a card;
--             $card_names - every card acquired (card_names.sql), sorted;
--             $faction_names - every faction of the run (faction_names.sql), sorted.
-- Reads views: games, players; card_holdings (card_holdings.sql, made by runfolder.query).
-- Returns: card_code, game_id, n_players, faction_code, n1, s1, in card, game, faction order.
-- Codes are looked up on the distinct holdings and on the players before the joins (not on
-- the joined rows): 6.1 -> 3.8 s for Dragon Brew's 200,000-game demo run, the same rows.
WITH holders AS (
    SELECT game_id, seat, (list_position($card_names, card) - 1)::INTEGER AS card_code
    FROM card_holdings
), seated AS (
    SELECT p.game_id, p.seat, g.n_players::BIGINT AS n_players,
           (list_position($faction_names, p.faction) - 1)::INTEGER AS faction_code, p.win
    FROM players AS p
    JOIN games AS g USING (game_id)
    WHERE p.game_id < $max_game
)
SELECT
    h.card_code,
    h.game_id,
    s.n_players,
    s.faction_code,
    count(*)::DOUBLE  AS n1,
    sum(s.win)::DOUBLE AS s1
FROM holders AS h
JOIN seated AS s USING (game_id, seat)
GROUP BY h.card_code, h.game_id, s.n_players, s.faction_code
ORDER BY h.card_code, h.game_id, s.faction_code;
