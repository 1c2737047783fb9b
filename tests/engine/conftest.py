import pytest

from twmahjong.profiles import load_profile


@pytest.fixture(scope="session")
def standard():
    return load_profile("standard")
