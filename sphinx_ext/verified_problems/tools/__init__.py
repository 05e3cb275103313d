"""The tools around a build: what authors and CI run, and the pages made from every verdict.

``verified-fix`` (:mod:`.fix`) and ``verified-new-problem`` (:mod:`.scaffold`) are commands;
:mod:`.reports` writes ``verification.json`` and JUnit XML; :mod:`.verify_builder` is
``sphinx-build -b verify``; :mod:`.verification_page` fills the book's Verification page.
"""
