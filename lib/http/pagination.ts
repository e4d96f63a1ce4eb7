export type Pagination = {
  total_items: number;
  items_per_page: number;
  current_page: number;
  total_pages: number;
};

export function paginationMeta(totalItems: number, perPage: number, page: number): Pagination {
  return {
    total_items: totalItems,
    items_per_page: perPage,
    current_page: page,
    total_pages: Math.ceil(totalItems / perPage),
  };
}

export function offsetOf(page: number, perPage: number): number {
  return (page - 1) * perPage;
}
