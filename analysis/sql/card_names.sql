-- Purpose: the cards acquired (or played) in the games used, sorted: the codes of
--          card_holder_cells.sql.
-- Parameters: $max_game - only games with game_id < $max_game are used;
--             $kinds - the event kinds that count as acquiring (or playing) a card.
-- Reads: card_holdings (card_holdings.sql, made by runfolder.query for these parameters).
-- Returns: card.
SELECT DISTINCT card
FROM card_holdings
ORDER BY card;
