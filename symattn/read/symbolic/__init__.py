"""Code followed symbolically, never run: exact arrays (:mod:`.values`), the array calls
followed (:mod:`.constructors`), causal masks told by their values (:mod:`.masks`), the
stage algebra (:mod:`.sym`), expressions (:mod:`.interpreter`), calls (:mod:`.calls`), user
functions inlined (:mod:`.functions`) and loops recognised by their shape (:mod:`.loops`).
:mod:`symattn.read.dataflow` walks a text's statements with them."""
