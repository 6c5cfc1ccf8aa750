"""The words of calcnb.studies in English, by key: the reference every other language translates."""

MESSAGES: dict[str, str] = {
    # calcnb.studies.folklore
    "folklore.percent": "{rate:.1f}% (95% interval {low:.1f}–{high:.1f}%, {games} deals)",
    "folklore.skilled.above": "**Holds.** {name} sees only what a person sees and wins {measured}: "
    "the whole interval lies above 80%.",
    "folklore.skilled.below": "**Not reached here.** The strongest blind player, {name}, wins {measured}: "
    "the whole interval lies below 80%.",
    "folklore.skilled.unclear": "**Too few deals to tell.** The strongest blind player, {name}, wins "
    "{measured}: the interval holds rates both above and below 80%.",
    "folklore.normal.above": "**More than that.** {name} wins {measured}: the whole interval lies above one in five.",
    "folklore.normal.below": "**Less than that.** {name} wins {measured}: the whole interval lies below one in five.",
    "folklore.normal.unclear": "**Too few deals to tell.** {name} wins {measured}: the interval holds "
    "one in five and rates on both sides of it.",
    "folklore.winnable.false": "**False.** The solver proved {lost} of {seeds} deals lost (seeds {shown}): "
    "no order of moves wins them, even knowing every card.",
    "folklore.winnable.open": "**Not settled.** The solver won {won} of {seeds} deals and proved none "
    "lost; {unknown} are still undecided. So at least {low:.2f}% of all deals are winnable (the "
    "interval's lower end, counting the undecided as not won).",
    "folklore.winnable.holds": "**Holds on every deal tried.** The solver won all {won} of {seeds} deals, "
    "each with a winning line that replays through the rules. So at least {low:.2f}% of all deals are "
    "winnable (the interval's lower end); a rare losing deal is not ruled out.",
    "folklore.random_beats_first_fit": "A surprise: random moves put {random:.1f} cards on the "
    "foundations on average, more than first fit's {first_fit:.1f}, although first fit never misses a "
    "foundation move. Piling every card on waste 1 buries what the foundations need next; random "
    "play spreads the cards over four piles.",
    "folklore.first_fit_beats_random": "First fit puts {first_fit:.1f} cards on the foundations on "
    "average, random moves {random:.1f}.",
    "folklore.alone.measured": "played again one game at a time, it thinks {median:.2f} s per choice in "
    "the median game (95% interval {low:.2f}–{high:.2f} s, {games} set-aside deals drawn at random; "
    "{stored:.2f} s as the study timed the same games, two at once)",
    "folklore.alone.below": "**Within a second.** {name}: {measured}. The whole interval lies under 1 s.",
    "folklore.alone.above": "**Over a second.** {name}: {measured}. The whole interval lies over 1 s.",
    "folklore.alone.unclear": "**Too few games to tell** whether {name} thinks at most a second per choice: "
    "{measured}, and the interval holds 1 s.",
    "folklore.nine_in_ten.above": "**Nine in ten, and more.** {name} wins {measured}: the whole "
    "interval lies above 90%.",
    "folklore.nine_in_ten.below": "**Not nine in ten.** {name} wins {measured}: the whole interval lies below 90%.",
    "folklore.nine_in_ten.unclear": "**Too few deals to tell** whether {name} wins nine in ten: it wins "
    "{measured}, and the interval holds 90%.",
    "folklore.paired": "On the {deals} deals both played, {first} won {first_only} that {second} lost, "
    "and lost {second_only} that {second} won.",
    "folklore.paired.above": "**{first} is stronger**: of those {split} deals it wins a share whose 95% "
    "interval ({low:.0f}–{high:.0f}%) lies above one half.",
    "folklore.paired.below": "**{second} is stronger**: of those {split} deals {first} wins a share whose "
    "95% interval ({low:.0f}–{high:.0f}%) lies below one half.",
    "folklore.paired.unclear": "**Too few deals to tell which is stronger**: of those {split} deals "
    "{first} wins a share whose 95% interval ({low:.0f}–{high:.0f}%) holds one half.",
    # calcnb.studies.measure
    "study.seeds_text": "seeds are a count or an iterable of seeds, not a string: {value} (study(player, [42]) studies seed 42)",
    "study.negative_count": "a study cannot have a negative number of deals; got {value}",
    "study.bad_seeds": "seeds are a count or an iterable of seeds; got {value}",
    "study.bad_seed": "seed number {index} of the study: {reason}",
    "study.bad_chunk": "chunk_size is a whole number of seeds, at least 1, or None; got {value}",
    # calcnb.studies.measure
    "study.no_seed": "seed {seed} is not in this study",
    "study.bad_executor": "executor must be None, 'serial' or a concurrent.futures.Executor; got {executor}",
    "study.bad_player": "study needs a Player, a solve function or 'solver'; got {player}",
    "study.serial_unguarded": 'study(): running on one core: {script} calls study() outside an if __name__ == "__main__": block, and the worker processes (started by {method}) would run the script again; put its code under that line to use every core.',
    "study.pool_broke": "study(): the worker processes stopped ({reason}); the remaining deals are played on one core.",
    "study.summary": "{name}: {wins}/{games} won = {rate}% (95% CI {low}–{high}%)",
    "study.summary_undecided": "lost {lost}, unknown {unknown}",
    "study.summary_mean": "mean score {mean}",
    "study.summary_median": "median {ms} ms/deal",
    "study.html_deals": "deals",
    "study.html_won": "won",
    "study.html_interval": "95% interval",
    "study.html_lost": "lost",
    "study.html_unknown": "unknown",
    "study.html_mean": "mean score",
    "study.html_median": "median time",
    "study.html_median_value": "{ms} ms per deal",
}
