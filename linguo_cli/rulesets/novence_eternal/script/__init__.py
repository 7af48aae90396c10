"""Scripts of rounds and turns (NV4) and the one-off ``turn_start`` (NO3)
and ``event`` requests of Novence Eternal.

- :mod:`.world`: the state in play (plain data) and its typed views;
- :mod:`.documents`: every document fault of a script, before any die;
- :mod:`.budget`: TA, AA, BA, RA, bonus reactions, Legendary (NT4-NT7, NR1);
- :mod:`.timing`: durations (NT1, NT2), status damage (ND7), NO3, NO4, NO5;
- :mod:`.actions`: what each step does, through the one-off rules;
- :mod:`.steps`: paying for steps, ``before``/``after`` entries (NR1, NR11);
- :mod:`.events`: NV4's events;
- :mod:`.play`: the request handlers; :mod:`.result`: their NV5 results.

- :mod:`.zenith_steps`: the ``sc_attack``, ``meditate`` and ``ultimate``
  steps, through their request modules.

Rules built in other modules are called, not copied:
:func:`.timing.up_gain_hook` (NU2, :mod:`..zenith`),
:func:`.steps.move_roll_hook` (NM1, :mod:`..movement`),
:func:`.steps.reaction_order_hook` (NR2, :mod:`..initiative`), the ``up``
and ``encounter_end`` events (:mod:`..zenith`).
"""
