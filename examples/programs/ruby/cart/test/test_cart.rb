require "minitest/autorun"
require "cart"

class TestCart < Minitest::Test
  def test_total
    assert_equal 42, Cart.total([[10, 2], [1, 22]])
  end

  def test_line_total
    assert_equal 42, Cart.line_total(7, 6)
  end

  def test_empty
    assert_equal 0, Cart.total([])
  end
end
