"""The PDF answer, on hand-built facts, and the page count read from a PDF's bytes."""

from __future__ import annotations

from cdpilot.answers.page_answers import saved_pdf_answer
from cdpilot.browser.page.capture_facts import PdfFile
from cdpilot.browser.page.pdf import count_pages

# The skeleton Chrome writes: a page tree (/Pages) over its page objects (/Page).
THREE_PAGES = (
    b"%PDF-1.4\n"
    b"1 0 obj\n<</Type /Pages /Count 3 /Kids [3 0 R 4 0 R 5 0 R]>>\nendobj\n"
    b"2 0 obj\n<</Type /Catalog /Pages 1 0 R>>\nendobj\n"
    b"3 0 obj\n<</Type /Page /Parent 1 0 R /MediaBox [0 0 612 792]>>\nendobj\n"
    b"4 0 obj\n<</Type/Page/Parent 1 0 R>>\nendobj\n"
    b"5 0 obj\n<</Parent 1 0 R /Type /Page>>\nendobj\n"
    b"%%EOF\n"
)


def test_pages_are_counted_without_the_page_tree() -> None:
    assert count_pages(THREE_PAGES) == 3


def test_only_the_name_page_counts() -> None:
    """A name that starts with /Page (the tree, labels) is another name; no page object, no page."""
    assert count_pages(b"<</Type /Pages /Count 0>> <</Type /PageLabels>> <</Type /Page#20x>>") == 0
    assert count_pages(b"<</Type /Page>>\n<</Type\n/Page\r/Contents 4 0 R>>") == 2


def test_a_saved_pdf_names_its_page_file_pages_weight_and_paper() -> None:
    pdf = PdfFile(b"%" * 49_000, 3)
    assert saved_pdf_answer(
        pdf, url="http://127.0.0.1:8000/report", path="/out/report.pdf", paper="letter", landscape=False
    ) == (
        "Saved a PDF of http://127.0.0.1:8000/report to /out/report.pdf: 3 pages, 49,000 bytes (48 KB) (letter, "
        "portrait)."
    )


def test_a_one_page_landscape_pdf() -> None:
    pdf = PdfFile(THREE_PAGES, 1)
    assert saved_pdf_answer(pdf, url="about:blank", path="/out/a.pdf", paper="a4", landscape=True) == (
        f"Saved a PDF of about:blank to /out/a.pdf: 1 page, {len(THREE_PAGES)} B (a4, landscape)."
    )
