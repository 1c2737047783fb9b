import pytest

from twmahjong.profiles import load_profile


@pytest.fixture(scope="session")
def standard():
    return load_profile("standard")


@pytest.fixture(scope="session")
def classic():
    return load_profile("classic")


@pytest.fixture(scope="session")
def casual():
    return load_profile("casual")
