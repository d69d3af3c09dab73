/*
 * Lie 21 Arena replay viewer (docs/web.md).
 *
 * Reads the replay document embedded in the page (docs/replay-format.md) and computes
 * every position itself: the hands from the deck and the deal, minus the cards played,
 * plus the draws; the sums with the soft-Ace rule; the game points from the won cards.
 * Where the replay also records a value (deal, sums, running points, scores) the computed
 * one is checked against it and any mismatch sets data-consistent="false" on the viewer.
 *
 * A player's view shows only what that player saw at the table (engine/games/lie21/
 * observe.py is the authority): its own hand, never the opponent's; The Liar's face-up
 * card; its own face-down cards; all six cards of a challenged hand once revealed; the
 * other side's cards of a forfeited hand stay backs until the game ends, when every card
 * of the game is shown. Forfeited sums and running game points are never shown to players
 * (points appear at game end).
 *
 * Names come from users: they only ever reach the page through textContent.
 */
(function () {
  "use strict";

  var root = document.getElementById("replay-viewer");
  var source = document.getElementById("replay-data");
  if (!root || !source) {
    return;
  }
  var doc = JSON.parse(source.textContent);

  // --- cards ------------------------------------------------------------------------------

  var SUITS = "SHDC";
  var RANKS = "A234567JQK";
  var SUIT_SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  var SUIT_NAME = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  var RANK_NAME = { A: "ace", J: "jack", Q: "queen", K: "king" };
  var COUNT = { A: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 10, J: 8, Q: 7, K: 9, X: 0 };
  var SCORE = { A: 11, 7: 10, K: 4, J: 3, Q: 2 };
  var SPECTATOR = -1;

  function cardOrder(card) {
    if (card[0] === "X") {
      return 40 + (card === "XR" ? 0 : 1);
    }
    return SUITS.indexOf(card[1]) * 10 + RANKS.indexOf(card[0]);
  }

  function sortCards(cards) {
    return cards.slice().sort(function (a, b) {
      return cardOrder(a) - cardOrder(b);
    });
  }

  /* The blackjack soft total: every Ace 1, raised to 11 one at a time while <= 21. */
  function moveTotal(cards) {
    var total = 0;
    var aces = 0;
    cards.forEach(function (card) {
      total += COUNT[card[0]];
      if (card[0] === "A") {
        aces += 1;
      }
    });
    while (aces && total + 10 <= 21) {
      total += 10;
      aces -= 1;
    }
    return total;
  }

  function scoreOf(cards) {
    return cards.reduce(function (sum, card) {
      return sum + (SCORE[card[0]] || 0);
    }, 0);
  }

  function cardName(card) {
    if (card === "XR") {
      return "red joker";
    }
    if (card === "XB") {
      return "black joker";
    }
    return (RANK_NAME[card[0]] || card[0]) + " of " + SUIT_NAME[card[1]];
  }

  function same(a, b) {
    return a.length === b.length && a.every(function (x, i) {
      return x === b[i];
    });
  }

  // --- the positions ----------------------------------------------------------------------

  var consistent = true;

  function check(ok) {
    if (!ok) {
      consistent = false;
    }
  }

  function removeCards(hand, cards) {
    var left = hand.slice();
    cards.forEach(function (card) {
      var at = left.indexOf(card);
      check(at >= 0);
      if (at >= 0) {
        left.splice(at, 1);
      }
    });
    return left;
  }

  /* One snapshot per step: everything the table shows at that moment. */
  function buildSteps() {
    var steps = [];
    var matchPoints = [0, 0];
    doc.games.forEach(function (game, gi) {
      var hands = [[], []];
      var dealer = game.dealer;
      hands[dealer] = sortCards(game.deck.slice(0, 6));
      hands[1 - dealer] = sortCards(game.deck.slice(6, 12));
      check(same(hands[0], sortCards(game.deal[0])) && same(hands[1], sortCards(game.deal[1])));
      check(game.trump_card === game.deck[41]);
      var deck = 30; // 42 cards less the two hands; the turned-up trump is still in it
      var nextDraw = 12;
      var won = [[], []];
      var done = [];

      function snap(phase, hand, extra) {
        var step = {
          phase: phase,
          game: gi,
          hand: hand,
          hands: [hands[0].slice(), hands[1].slice()],
          deck: deck,
          captured: [won[0].length, won[1].length],
          points: [scoreOf(won[0]), scoreOf(won[1])],
          matchPoints: matchPoints.slice(),
          done: done.slice(),
          sums: null,
          drawn: [[], []],
        };
        Object.keys(extra || {}).forEach(function (key) {
          step[key] = extra[key];
        });
        steps.push(step);
      }

      snap("deal", null);
      game.hands.forEach(function (h, hi) {
        hands[h.liar] = removeCards(hands[h.liar], h.liar_cards);
        snap("lie", hi);
        hands[h.judge] = removeCards(hands[h.judge], h.judge_cards);
        snap("answer", hi);
        var sums = [moveTotal(h.liar_cards), moveTotal(h.judge_cards)];
        check(sums[0] === h.liar_sum && sums[1] === h.judge_sum);
        won[h.winner] = won[h.winner].concat(h.liar_cards, h.judge_cards);
        check(scoreOf(won[0]) === h.points[0] && scoreOf(won[1]) === h.points[1]);
        done.push(hi);
        snap("result", hi, { sums: sums });
        if (h.draws.length) {
          var drawn = [[], []];
          h.draws.forEach(function (d) {
            check(same(d.cards, game.deck.slice(nextDraw, nextDraw + d.cards.length)));
            nextDraw += d.cards.length;
            hands[d.seat] = sortCards(hands[d.seat].concat(d.cards));
            drawn[d.seat] = d.cards.slice();
            deck -= d.cards.length;
          });
          snap("draw", hi, { sums: sums, drawn: drawn });
        }
      });
      if (game.end === "complete") {
        check(game.scores[0] === scoreOf(won[0]) && game.scores[1] === scoreOf(won[1]));
        matchPoints = game.match_points.slice();
        snap("game_end", null);
      } else {
        snap("game_error", null);
      }
    });
    var last = steps.length ? steps[steps.length - 1] : null;
    var end = {
      phase: "match_end",
      game: last ? last.game : -1,
      hand: null,
      hands: last ? last.hands : [[], []],
      deck: last ? last.deck : 0,
      captured: last ? last.captured : [0, 0],
      points: last ? last.points : [0, 0],
      matchPoints: doc.result.match_points.slice(),
      done: last ? last.done : [],
      sums: null,
      drawn: [[], []],
      revealed: last ? last.phase === "game_end" : false,
    };
    steps.push(end);
    return steps;
  }

  var steps = buildSteps();
  root.dataset.consistent = consistent ? "true" : "false";
  root.dataset.steps = String(steps.length);

  // --- DOM helpers ------------------------------------------------------------------------

  function $(id) {
    return document.getElementById(id);
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === "text") {
        node.textContent = attrs[key];
      } else if (key === "className") {
        node.className = attrs[key];
      } else {
        node.setAttribute(key, attrs[key]);
      }
    });
    (children || []).forEach(function (child) {
      node.appendChild(child);
    });
    return node;
  }

  function fill(node, children) {
    node.replaceChildren.apply(node, children);
  }

  /* state: "up" (face up), "down" (face down, but seen by this viewer), "back" (unseen). */
  function cardEl(card, state, extraClass) {
    if (state === "back") {
      return el("span", {
        className: "card back" + (extraClass ? " " + extraClass : ""),
        "data-card": "back",
        role: "img",
        "aria-label": "face-down card",
      });
    }
    var suit = card[0] === "X" ? (card === "XR" ? "H" : "S") : card[1];
    var red = suit === "H" || suit === "D";
    var classes = ["card", red ? "red" : "black"];
    if (card[0] === "X") {
      classes.push("joker");
    }
    if (state === "down") {
      classes.push("down");
    }
    if (extraClass) {
      classes.push(extraClass);
    }
    var label = cardName(card) + (state === "down" ? " (face down)" : "");
    return el(
      "span",
      {
        className: classes.join(" "),
        "data-card": card,
        "data-state": state,
        role: "img",
        "aria-label": label,
        title: label,
      },
      [
        el("span", { className: "rank", text: card[0] === "X" ? "\u2605" : card[0] }),
        el("span", { className: "suit", text: card[0] === "X" ? "Joker" : SUIT_SYMBOL[suit] }),
      ]
    );
  }

  function slotEl() {
    return el("span", { className: "card slot", "data-card": "", "aria-hidden": "true" });
  }

  // --- what a viewer may see --------------------------------------------------------------

  var PHASE_RANK = { lie: 1, answer: 2, result: 3, draw: 4 };
  var RULES = {
    forfeit: "Forfeit: The Judge answered face down, so The Liar wins",
    bust: "Bust: over 21 loses",
    closer: "Closer to 21",
    more_trumps: "More trumps",
    higher_trump: "Higher trump",
    liar_wins_tie: "Tie without trumps: The Liar wins",
  };
  var GAME_RESULTS = {
    win: "win (61-89)",
    double: "double (90+)",
    sweep: "sweep (120)",
    tie: "tie (60-60)",
    error: "stopped by a fault",
  };
  var REASONS = {
    match_points: "first to " + ((doc.options && doc.options.target) || 4) + " match points",
    sweep: "a sweep",
    game_cap: "the game cap",
    error: "a fault",
  };

  /* The bots' names as the page knows them (the replay's own are "owner/name"). */
  function name(seat) {
    return root.getAttribute("data-name-" + seat) || doc.players[seat] || "seat " + seat;
  }

  function isRevealed(step) {
    return step.phase === "game_end" || (step.phase === "match_end" && step.revealed);
  }

  /* How one card of a played hand shows to `view`; `owner` played it. */
  function playedState(view, owner, public_, revealed) {
    if (public_) {
      return "up";
    }
    if (revealed) {
      return "down";
    }
    return view === SPECTATOR || view === owner ? "down" : "back";
  }

  function liarCards(h, view, shownAll, revealed) {
    return h.liar_cards.map(function (card, i) {
      var state = playedState(view, h.liar, i === h.face_up || shownAll, revealed);
      return cardEl(card, state, i === h.face_up ? "shown" : "");
    });
  }

  function judgeCards(h, view, shownAll, revealed) {
    return h.judge_cards.map(function (card) {
      return cardEl(card, playedState(view, h.judge, shownAll, revealed));
    });
  }

  // --- rendering --------------------------------------------------------------------------

  var state = { index: 0, view: SPECTATOR, playing: false, speed: 1, timer: null };

  function render() {
    var step = steps[state.index];
    var game = step.game >= 0 ? doc.games[step.game] : null;
    var h = game && step.hand !== null ? game.hands[step.hand] : null;
    var view = state.view;
    var revealed = isRevealed(step);
    root.dataset.view = view === SPECTATOR ? "spectator" : String(view);
    root.classList.toggle("view-1", view === 1);

    var status = $("rv-status");
    status.dataset.step = String(state.index);
    status.dataset.game = game ? String(game.number) : "";
    status.dataset.hand = h ? String(h.number) : "";
    status.dataset.phase = step.phase;
    status.textContent = describe(step, game, h, view);
    $("rv-position").textContent = state.index + 1 + " / " + steps.length;
    $("rv-slider").value = String(state.index);

    renderSeats(step, game, h, view, revealed);
    renderTable(step, game, h, view);
    renderHistory(step, game, view, revealed);
    renderPanels(step, game);
    syncControls(step);
  }

  function renderSeats(step, game, h, view, revealed) {
    [0, 1].forEach(function (seat) {
      var hand = $("rv-hand-" + seat);
      var visible = view === SPECTATOR || view === seat;
      var drawn = step.phase === "draw" ? step.drawn[seat] : [];
      fill(
        hand,
        step.hands[seat].map(function (card) {
          if (!visible) {
            return cardEl(card, "back");
          }
          return cardEl(card, "up", drawn.indexOf(card) >= 0 ? "new" : "");
        })
      );
      hand.dataset.count = String(step.hands[seat].length);
      var role = "";
      if (h) {
        role = seat === h.liar ? "The Liar" : "The Judge";
      } else if (game && step.phase === "deal") {
        role = seat === game.dealer ? "Dealer (The Liar of hand 1)" : "";
      }
      $("rv-role-" + seat).textContent = role;
      $("rv-won-" + seat).textContent = step.captured[seat] + " cards won";
      var showPoints = view === SPECTATOR || revealed;
      var points = $("rv-points-" + seat);
      points.textContent = showPoints ? step.points[seat] + " pts" : "? pts";
      points.dataset.points = showPoints ? String(step.points[seat]) : "";
      var mp = $("rv-mp-" + seat);
      mp.textContent = step.matchPoints[seat] + " MP";
      mp.dataset.matchPoints = String(step.matchPoints[seat]);
    });
  }

  function renderTable(step, game, h, view) {
    var deckEl = $("rv-deck");
    var trumpEl = $("rv-trump");
    deckEl.dataset.count = game ? String(step.deck) : "0";
    $("rv-deck-count").textContent = game ? step.deck + " in deck" : "";
    if (game && step.deck > 0) {
      fill(trumpEl, [cardEl(game.trump_card, "up", "trump")]);
      trumpEl.dataset.card = game.trump_card;
    } else {
      fill(trumpEl, []);
      trumpEl.dataset.card = "";
    }
    var suit = game ? game.trump_suit : null;
    $("rv-trump-suit").textContent = !game
      ? ""
      : suit
        ? "Trump: " + SUIT_SYMBOL[suit] + " " + SUIT_NAME[suit]
        : "No trump (a Joker is turned up)";
    deckEl.classList.toggle("empty", !game || step.deck === 0);

    var rank = PHASE_RANK[step.phase] || 0;
    var liarBox = $("rv-liar-cards");
    var judgeBox = $("rv-judge-cards");
    var liarSum = $("rv-liar-sum");
    var judgeSum = $("rv-judge-sum");
    var outcome = $("rv-outcome");
    $("rv-play-area").hidden = !h;
    if (!h) {
      fill(liarBox, []);
      fill(judgeBox, []);
      liarSum.textContent = judgeSum.textContent = outcome.textContent = "";
      liarSum.dataset.sum = judgeSum.dataset.sum = "";
      outcome.dataset.winner = outcome.dataset.rule = "";
      return;
    }
    $("rv-liar-name").textContent = "The Liar: " + name(h.liar);
    $("rv-judge-name").textContent = "The Judge: " + name(h.judge);
    var shownAll = h.challenge && rank >= PHASE_RANK.result;
    fill(liarBox, liarCards(h, view, shownAll, false));
    var answered = rank >= PHASE_RANK.answer;
    fill(judgeBox, answered ? judgeCards(h, view, h.challenge, false) : [slotEl(), slotEl(), slotEl()]);
    $("rv-answer").textContent = answered ? (h.challenge ? "Challenge (face up)" : "Forfeit (face down)") : "";
    var sumsShown = rank >= PHASE_RANK.result && (h.challenge || view === SPECTATOR);
    [
      [liarSum, 0],
      [judgeSum, 1],
    ].forEach(function (pair) {
      var node = pair[0];
      if (sumsShown) {
        node.dataset.sum = String(step.sums[pair[1]]);
        node.textContent = "sum " + step.sums[pair[1]];
        node.classList.toggle("bust", step.sums[pair[1]] > 21);
        node.title = h.challenge ? "" : "Not shown to the players: the hand was forfeited";
        node.classList.toggle("private", !h.challenge);
      } else {
        node.dataset.sum = "";
        node.textContent = rank >= PHASE_RANK.result ? "sum not shown" : "";
        node.classList.remove("bust", "private");
        node.title = "";
      }
    });
    if (rank >= PHASE_RANK.result) {
      outcome.dataset.winner = String(h.winner);
      outcome.dataset.rule = h.rule;
      outcome.textContent = name(h.winner) + " wins the hand \u2014 " + RULES[h.rule];
    } else {
      outcome.dataset.winner = outcome.dataset.rule = "";
      outcome.textContent = "";
    }
  }

  function renderHistory(step, game, view, revealed) {
    var list = $("rv-history");
    if (!game) {
      fill(list, []);
      return;
    }
    fill(
      list,
      step.done.map(function (hi) {
        var h = game.hands[hi];
        var sums =
          h.challenge || view === SPECTATOR
            ? h.liar_sum + " v " + h.judge_sum + (h.challenge ? "" : " (not shown to players)")
            : "sums not shown";
        return el(
          "li",
          {
            "data-hand": String(h.number),
            className: hi === step.hand ? "current" : "",
          },
          [
            el("span", { className: "hand-no", text: "Hand " + h.number }),
            el("span", { className: "who", text: name(h.liar) + " (Liar)" }),
            el("span", { className: "cards mini" }, liarCards(h, view, h.challenge, revealed)),
            el("span", { className: "who", text: "v " + name(h.judge) + " (Judge)" }),
            el("span", { className: "cards mini" }, judgeCards(h, view, h.challenge, revealed)),
            el("span", { className: "hand-result", text: sums + " \u2192 " + name(h.winner) + ", " + h.rule.replace(/_/g, " ") }),
          ]
        );
      })
    );
  }

  function renderPanels(step, game) {
    var gameEnd = $("rv-game-end");
    if (game && (step.phase === "game_end" || (step.phase === "match_end" && step.revealed))) {
      var winner = game.winner === null ? "Tied game" : name(game.winner) + " wins the game";
      gameEnd.textContent =
        "Game " + game.number + ": " + name(0) + " " + game.scores[0] + " \u2013 " +
        game.scores[1] + " " + name(1) + ". " + winner + ", " + GAME_RESULTS[game.result] +
        ". Match points awarded " + game.awarded[0] + "\u2013" + game.awarded[1] +
        "; match points now " + game.match_points[0] + "\u2013" + game.match_points[1] + ".";
      gameEnd.hidden = false;
    } else {
      gameEnd.hidden = true;
      gameEnd.textContent = "";
    }
    var matchEnd = $("rv-match-end");
    if (step.phase === "match_end" || step.phase === "game_error") {
      var result = doc.result;
      var text =
        result.winner === null
          ? "Drawn match"
          : name(result.winner) + " wins the match by " + (REASONS[result.reason] || result.reason);
      text += " \u2014 match points " + result.match_points[0] + "\u2013" + result.match_points[1] + ".";
      if (result.error) {
        text += " " + name(result.error.seat) + " lost by a fault (" + result.error.kind.replace(/_/g, " ") + ")";
        if (result.error.game) {
          text += " in game " + result.error.game + (result.error.hand ? ", hand " + result.error.hand : "");
        }
        if (result.error.phase) {
          text += ", " + result.error.phase.replace(/_/g, " ") + " phase";
        }
        text += ": " + result.error.detail;
      }
      matchEnd.textContent = text;
      matchEnd.hidden = false;
    } else {
      matchEnd.hidden = true;
      matchEnd.textContent = "";
    }
  }

  function describe(step, game, h, view) {
    if (step.phase === "match_end") {
      return "Match over after " + doc.result.games_played + " game(s).";
    }
    var prefix = "Game " + game.number + (h ? ", hand " + h.number : "") + ": ";
    switch (step.phase) {
      case "deal":
        return prefix + name(game.dealer) + " deals; the turned-up card is " + cardName(game.trump_card) + ".";
      case "lie":
        return prefix + name(h.liar) + " (The Liar) plays three cards, one face up.";
      case "answer":
        return prefix + name(h.judge) + " (The Judge) " + (h.challenge ? "challenges: three cards face up." : "forfeits: three cards face down.");
      case "result":
        return prefix + (h.challenge ? "The reveal: " : "") + name(h.winner) + " wins the hand (" + h.rule.replace(/_/g, " ") + ").";
      case "draw":
        return prefix + h.draws.map(function (d) {
          return name(d.seat) + " draws " + d.cards.length;
        }).join(", then ") + ".";
      case "game_end":
        return prefix + "game over, every card is revealed.";
      case "game_error":
        return prefix + "the game stopped on a bot's fault.";
      default:
        return prefix;
    }
  }

  // --- controls ---------------------------------------------------------------------------

  var gameSelect = $("rv-jump-game");
  var handSelect = $("rv-jump-hand");
  var playButton = $("rv-play");
  var slider = $("rv-slider");
  slider.max = String(steps.length - 1);

  doc.games.forEach(function (game, gi) {
    gameSelect.appendChild(el("option", { value: String(gi), text: "Game " + game.number }));
  });
  gameSelect.disabled = doc.games.length === 0;

  function firstStep(predicate) {
    for (var i = 0; i < steps.length; i += 1) {
      if (predicate(steps[i])) {
        return i;
      }
    }
    return -1;
  }

  function fillHands(gi) {
    var options = [el("option", { value: "deal", text: "Deal" })];
    if (gi >= 0) {
      doc.games[gi].hands.forEach(function (h, hi) {
        options.push(el("option", { value: String(hi), text: "Hand " + h.number }));
      });
      options.push(el("option", { value: "end", text: "Game end" }));
    }
    fill(handSelect, options);
    handSelect.dataset.game = String(gi);
  }

  function syncControls(step) {
    if (step.game >= 0 && gameSelect.value !== String(step.game)) {
      gameSelect.value = String(step.game);
    }
    if (handSelect.dataset.game !== String(step.game)) {
      fillHands(step.game);
    }
    var handValue = step.hand !== null ? String(step.hand) : step.phase === "deal" ? "deal" : "end";
    handSelect.value = handValue;
    playButton.setAttribute("aria-pressed", state.playing ? "true" : "false");
    playButton.classList.toggle("playing", state.playing);
    playButton.setAttribute("aria-label", state.playing ? "Pause (space)" : "Play (space)");
    $("rv-prev").disabled = state.index === 0;
    $("rv-first").disabled = state.index === 0;
    $("rv-next").disabled = state.index === steps.length - 1;
    $("rv-last").disabled = state.index === steps.length - 1;
    [SPECTATOR, 0, 1].forEach(function (view) {
      var radio = $("rv-view-" + (view === SPECTATOR ? "all" : view));
      radio.checked = state.view === view;
    });
  }

  function go(index) {
    state.index = Math.max(0, Math.min(steps.length - 1, index));
    if (state.index === steps.length - 1) {
      stop();
    }
    render();
  }

  function jumpGame(gi) {
    var at = firstStep(function (s) {
      return s.game === gi;
    });
    if (at >= 0) {
      go(at);
    }
  }

  function jumpHand(value) {
    var gi = steps[state.index].game;
    var at = firstStep(function (s) {
      if (s.game !== gi) {
        return false;
      }
      if (value === "deal") {
        return s.phase === "deal";
      }
      if (value === "end") {
        return s.phase === "game_end" || s.phase === "game_error";
      }
      return s.hand === Number(value);
    });
    if (at >= 0) {
      go(at);
    }
  }

  /* Next or previous hand (or deal / game end) of the match, from the current step. */
  function stepHand(direction) {
    var current = steps[state.index];
    var i = state.index;
    var key = function (s) {
      return s.game + ":" + (s.hand === null ? s.phase : s.hand);
    };
    if (direction > 0) {
      while (i < steps.length - 1 && key(steps[i]) === key(current)) {
        i += 1;
      }
    } else {
      // Back to the start of this hand, or of the previous one when already there.
      while (i > 0 && key(steps[i - 1]) === key(current)) {
        i -= 1;
      }
      if (i === state.index && i > 0) {
        var previous = key(steps[i - 1]);
        i -= 1;
        while (i > 0 && key(steps[i - 1]) === previous) {
          i -= 1;
        }
      }
    }
    go(i);
  }

  function delay() {
    return 1200 / state.speed;
  }

  function tick() {
    if (!state.playing) {
      return;
    }
    if (state.index >= steps.length - 1) {
      stop();
      render();
      return;
    }
    go(state.index + 1);
    if (state.playing) {
      state.timer = window.setTimeout(tick, delay());
    }
  }

  function play() {
    if (state.index >= steps.length - 1) {
      state.index = 0;
    }
    state.playing = true;
    window.clearTimeout(state.timer);
    state.timer = window.setTimeout(tick, delay());
    render();
  }

  function stop() {
    state.playing = false;
    window.clearTimeout(state.timer);
    state.timer = null;
  }

  function toggle() {
    if (state.playing) {
      stop();
      render();
    } else {
      play();
    }
  }

  function setView(view) {
    state.view = view;
    render();
  }

  function setSpeed(speed) {
    state.speed = speed;
    $("rv-speed").value = String(speed);
    if (state.playing) {
      window.clearTimeout(state.timer);
      state.timer = window.setTimeout(tick, delay());
    }
  }

  var SPEEDS = [0.5, 1, 2, 4, 8];

  $("rv-first").addEventListener("click", function () {
    stop();
    go(0);
  });
  $("rv-prev").addEventListener("click", function () {
    stop();
    go(state.index - 1);
  });
  $("rv-next").addEventListener("click", function () {
    stop();
    go(state.index + 1);
  });
  $("rv-last").addEventListener("click", function () {
    stop();
    go(steps.length - 1);
  });
  playButton.addEventListener("click", toggle);
  $("rv-speed").addEventListener("change", function (event) {
    setSpeed(Number(event.target.value));
  });
  slider.addEventListener("input", function () {
    stop();
    go(Number(slider.value));
  });
  gameSelect.addEventListener("change", function () {
    stop();
    jumpGame(Number(gameSelect.value));
  });
  handSelect.addEventListener("change", function () {
    stop();
    jumpHand(handSelect.value);
  });
  [["all", SPECTATOR], ["0", 0], ["1", 1]].forEach(function (pair) {
    $("rv-view-" + pair[0]).addEventListener("change", function () {
      setView(pair[1]);
    });
  });

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) {
      return;
    }
    var target = event.target;
    var tag = target && target.tagName ? target.tagName.toLowerCase() : "";
    if (tag === "input" || tag === "select" || tag === "textarea" || (target && target.isContentEditable)) {
      return; // the control's own keys win (typing, arrows on the slider or a radio)
    }
    if ((tag === "button" || tag === "a" || tag === "summary") && (event.key === " " || event.key === "Enter")) {
      return; // activating a focused control is that control's job
    }
    var handled = true;
    switch (event.key) {
      case " ":
      case "k":
        toggle();
        break;
      case "ArrowRight":
        stop();
        go(state.index + 1);
        break;
      case "ArrowLeft":
        stop();
        go(state.index - 1);
        break;
      case "Home":
        stop();
        go(0);
        break;
      case "End":
        stop();
        go(steps.length - 1);
        break;
      case "]":
        stop();
        stepHand(1);
        break;
      case "[":
        stop();
        stepHand(-1);
        break;
      case "0":
        setView(SPECTATOR);
        break;
      case "1":
        setView(0);
        break;
      case "2":
        setView(1);
        break;
      case "+":
      case "=":
        setSpeed(SPEEDS[Math.min(SPEEDS.length - 1, SPEEDS.indexOf(state.speed) + 1)]);
        break;
      case "-":
        setSpeed(SPEEDS[Math.max(0, SPEEDS.indexOf(state.speed) - 1)]);
        break;
      default:
        handled = false;
    }
    if (handled) {
      event.preventDefault();
    }
  });

  fillHands(steps[0].game);
  root.hidden = false;
  render();
  root.dataset.ready = "true";
})();
