"""The Sphinx shell: what a build does with the core and the engine, and nothing more.

The ``check-numeric`` directive records a snippet's result on a node (:mod:`.numeric_directive`,
:mod:`.snippets`); once a page is parsed, :mod:`.page_check` first writes the printed values
it asks for by name (:mod:`.injection`), then hands every number of its prose
to the core and keeps the verdicts in the environment (:mod:`.collector`, :mod:`.records`;
on a large serial HTML build, beside the writer in a forked helper: :mod:`.background`);
:mod:`.render` and :mod:`.digit_marks` show them per builder; :mod:`.verdict` fails the build.
Problems are first-class (:mod:`.problems`: the header, the ``problem`` domain, the index), the
configuration is typed (:mod:`.config`) and every message has a subtype (:mod:`.diagnostics`).
"""
